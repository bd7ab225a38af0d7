#!/usr/bin/env bash
# Installs every build and test dependency of dra from Debian's packages.
# Idempotent: packages already present are left alone; prints what it installs.
# Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libyaml-cpp-dev libfmt-dev libcli11-dev libre2-dev libgmp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  clang libclang-rt-14-dev clang-format clang-tidy python3 python3-yaml
  libcurl4-openssl-dev ccache openssl libcpp-httplib-dev libzstd-dev zlib1g-dev
  prometheus chromium
)

# Node and npm extract test data from npm packages; any installed Node will do.
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "bootstrap: all ${#packages[@]} packages present"
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "bootstrap: done"
