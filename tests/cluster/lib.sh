# A real Kubernetes control plane for shell tests (docs/CLUSTER.md).
#   source tests/cluster/lib.sh
#   cluster_up DIR [testcluster flags: --components scheduler,... --kubelet NODE ...]
#   kubectl get resourceslices        # a function: the cluster's kubectl, admin kubeconfig
#   cluster_cmd restart-apiserver      # supervisor commands; prints the answer, fails on ERR
#   cluster_down                       # also runs on EXIT (trap) if not called
# cluster_up starts interop/cluster's testcluster supervisor in the background
# with a FIFO as its stdin, waits for "READY", and exports the variables of
# DIR/env (KUBECONFIG, DRA_CLUSTER_SERVER, DRA_CLUSTER_ETCD, DRA_CLUSTER_KUBECTL,
# DRA_CLUSTER_RESTRICTED_KUBECONFIG, DRA_CLUSTER_PIDS, ...). The binaries come
# from $DRA_CLUSTER_BIN, else tests/cluster/build.sh's default directory;
# cluster_up returns 77 when they are not there (a test can `exit 77`: skipped).
# If the shell dies without cluster_down, the FIFO's writer goes away and the
# supervisor tears the cluster down by itself.

_cluster_pid=
_cluster_in=
_cluster_out=

cluster_bin_dir() {
  echo "${DRA_CLUSTER_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop/cluster-bin}"
}

cluster_up() {
  local dir=$1
  shift
  local bin
  bin=$(cluster_bin_dir)
  if [[ ! -x $bin/testcluster || ! -x $bin/kube-apiserver ]]; then
    echo "SKIPPED: no cluster binaries in $bin (tests/cluster/build.sh builds them; it needs Go)"
    return 77
  fi
  mkdir -p "$dir" || return 1
  dir=$(cd "$dir" && pwd)
  rm -f "$dir/supervisor.in" "$dir/supervisor.out"
  mkfifo "$dir/supervisor.in" "$dir/supervisor.out" || return 1
  "$bin/testcluster" --dir "$dir" --bin "$bin" "$@" < "$dir/supervisor.in" > "$dir/supervisor.out" \
    2> "$dir/supervisor.log" &
  _cluster_pid=$!
  # Our ends of the FIFOs stay open in this shell on fds 7 (commands) and 8
  # (answers) until cluster_down.
  exec 7> "$dir/supervisor.in" 8< "$dir/supervisor.out"
  _cluster_in=7
  _cluster_out=8
  trap cluster_down EXIT
  local line=
  if ! read -r -t 300 line <&8 || [[ $line != READY* ]]; then
    echo "cluster_up: the cluster did not start: ${line:-no answer}" >&2
    cat "$dir/supervisor.log" >&2
    echo "cluster_up: logs in $dir/logs" >&2
    cluster_down
    return 1
  fi
  set -a
  # shellcheck disable=SC1091
  source "$dir/env"
  set +a
  return 0
}

# cluster_cmd COMMAND: sends a supervisor command (restart-apiserver,
# stop-apiserver, start-apiserver, compact) and prints its answer line.
cluster_cmd() {
  [[ -n $_cluster_pid ]] || { echo "cluster_cmd: no cluster" >&2; return 1; }
  local line=
  echo "$1" >&7 || return 1
  read -r -t 300 line <&8 || { echo "cluster_cmd $1: no answer" >&2; return 1; }
  echo "$line"
  [[ $line == OK* ]] || return 1
  # restart/start change the apiserver's pid in DRA_CLUSTER_DIR/env.
  set -a
  # shellcheck disable=SC1091
  source "$DRA_CLUSTER_DIR/env"
  set +a
}

cluster_down() {
  [[ -n $_cluster_pid ]] || return 0
  local pid=$_cluster_pid
  _cluster_pid=
  # The supervisor may be gone already: writing to a FIFO nobody reads would
  # kill this shell with SIGPIPE, hiding the test's own message.
  if kill -0 "$pid" 2> /dev/null; then
    (trap '' PIPE; echo stop >&7) 2> /dev/null
  fi
  exec 7>&- 8<&-
  local i
  for ((i = 0; i < 400; i++)); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2> /dev/null; then
    kill -TERM "$pid" 2> /dev/null
    sleep 5
    kill -KILL "$pid" 2> /dev/null
  fi
  wait "$pid" 2> /dev/null
  return 0
}

# wait_until SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds
# (0) or SECONDS have passed (1).
wait_until() {
  local limit=$1
  shift
  local i
  for ((i = 0; i < limit * 5; i++)); do
    "$@" && return 0
    sleep 0.2
  done
  return 1
}

kubectl() {
  "${DRA_CLUSTER_KUBECTL:-$(cluster_bin_dir)/kubectl}" "$@" 7>&- 8<&-
}
