// Command testcluster runs a real Kubernetes control plane (etcd,
// kube-apiserver and optionally kube-scheduler, kube-controller-manager and
// hollow kubelets) on 127.0.0.1 for one test, and tears it down when the test
// is done or gone. See docs/CLUSTER.md.
//
//	testcluster --dir D --bin BINDIR [--feature-gates A=true,...]
//	    [--runtime-config ...] [--components apiserver,scheduler,controller-manager]
//	    [--controllers LIST] [--kubelet NODE]...
//
// When everything is ready it writes D/admin.kubeconfig, D/token-admin.kubeconfig,
// D/restricted.kubeconfig, D/kubelet-NODE.kubeconfig, D/ca.crt and D/env, and
// prints "READY D/admin.kubeconfig". Then it reads one command per line on
// stdin and answers one line, "OK ..." or "ERR why":
//
//	restart-apiserver, stop-apiserver, start-apiserver, compact, stop,
//	restart-kubelet NODE, stop-kubelet NODE, start-kubelet NODE
//
// End of stdin, SIGTERM or SIGINT tear the cluster down too. Every component
// runs in its own process group with a parent-death signal, and is stopped by
// PID: kubelets and other clients first, then kube-apiserver, then etcd.
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// kube-apiserver keeps draining its clients' watches for about 10 s after
// SIGTERM; a test cluster's data is all in etcd, so it is killed sooner.
const apiserverGrace = 3 * time.Second

const defaultRuntimeConfig = "resource.k8s.io/v1=true,resource.k8s.io/v1beta1=true,resource.k8s.io/v1beta2=true"

// proc is one component process.
type proc struct {
	name string
	path string
	args []string
	log  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
	err  error
}

func (p *proc) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	logFile, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(logFile, "==== %s: %s %s\n", time.Now().Format(time.RFC3339Nano), p.path, strings.Join(p.args, " "))
	cmd := exec.Command(p.path, p.args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("starting %s: %w", p.name, err)
	}
	logFile.Close()
	done := make(chan struct{})
	p.cmd, p.done = cmd, done
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(done)
	}()
	return nil
}

func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// exited reports whether the process was started and has exited, and why.
func (p *proc) exited() (bool, error) {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return false, nil
	}
	select {
	case <-done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return true, p.err
	default:
		return false, nil
	}
}

// stop sends SIGTERM to the process group, then SIGKILL after grace.
func (p *proc) stop(grace time.Duration) {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	pid := cmd.Process.Pid
	select {
	case <-done:
	default:
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(grace):
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-done
		}
	}
	// Anything the component left in its process group goes too.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	p.mu.Lock()
	p.cmd, p.done = nil, nil
	p.mu.Unlock()
}

type cluster struct {
	dir, bin      string
	featureGates  string
	runtimeConfig string
	controllers   string
	components    map[string]bool
	kubelets      []string
	apiserverArgs []string // extra kube-apiserver flags; each replaces a default flag of the same name
	verbosity     int

	pki                *pki
	etcdPort, etcdPeer int
	apiPort            int
	adminToken         string
	restrictedToken    string
	nodeTokens         map[string]string
	etcd, apiserver    *proc
	clients            []*proc // scheduler, controller-manager, kubelets
	kubeletRoots       map[string]string
	httpClient         *http.Client
	mu                 sync.Mutex // serializes commands
	tdMu               sync.Mutex // serializes teardowns
	tornDown           bool
}

// portsGiven holds every port freePort handed out: the kernel may offer a
// port again once its probe socket is closed, and two components on one port
// fail at start ("address already in use").
var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

func freePort() (int, error) {
	portsMu.Lock()
	defer portsMu.Unlock()
	for i := 0; i < 100; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !portsGiven[port] {
			portsGiven[port] = true
			return port, nil
		}
	}
	return 0, errors.New("no free port that was not handed out already")
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "testcluster: "+format+"\n", args...)
}

func (c *cluster) server() string  { return fmt.Sprintf("https://127.0.0.1:%d", c.apiPort) }
func (c *cluster) etcdURL() string { return fmt.Sprintf("http://127.0.0.1:%d", c.etcdPort) }

func (c *cluster) path(name string) string { return filepath.Join(c.dir, name) }

func (c *cluster) newProc(name, binary string, args ...string) *proc {
	return &proc{name: name, path: filepath.Join(c.bin, binary), args: args, log: filepath.Join(c.dir, "logs", name+".log")}
}

func (c *cluster) setup() error {
	for _, d := range []string{"logs", "etcd", "kubelets"} {
		if err := os.MkdirAll(c.path(d), 0o755); err != nil {
			return err
		}
	}
	var err error
	if c.pki, err = makePKI(c.dir); err != nil {
		return err
	}
	for _, port := range []*int{&c.etcdPort, &c.etcdPeer, &c.apiPort} {
		if *port, err = freePort(); err != nil {
			return err
		}
	}
	// Static bearer tokens: token,user,uid,"group1,group2".
	c.adminToken, c.restrictedToken = randomToken(), randomToken()
	var tokens strings.Builder
	fmt.Fprintf(&tokens, "%s,token-admin,token-admin,\"system:masters\"\n", c.adminToken)
	fmt.Fprintf(&tokens, "%s,restricted,restricted\n", c.restrictedToken)
	c.nodeTokens = map[string]string{}
	for _, node := range c.kubelets {
		t := randomToken()
		c.nodeTokens[node] = t
		fmt.Fprintf(&tokens, "%s,system:node:%s,node-%s,\"system:nodes\"\n", t, node, node)
	}
	if err := os.WriteFile(c.path("tokens.csv"), []byte(tokens.String()), 0o600); err != nil {
		return err
	}

	if err := c.writeKubeconfigs(); err != nil {
		return err
	}

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.pki.caPEM)
	adminPair, err := tls.X509KeyPair(c.pki.adminPEM, c.pki.adminKPEM)
	if err != nil {
		return err
	}
	c.httpClient = &http.Client{
		Timeout: 5 * time.Second,
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{adminPair}},
			Proxy:           nil,
		},
	}

	fg := func(args []string) []string {
		if c.featureGates != "" {
			args = append(args, "--feature-gates="+c.featureGates)
		}
		if c.verbosity > 0 {
			args = append(args, fmt.Sprintf("--v=%d", c.verbosity))
		}
		return args
	}

	c.etcd = c.newProc("etcd", "etcd",
		"--name=testcluster",
		"--data-dir="+c.path("etcd"),
		"--listen-client-urls="+c.etcdURL(),
		"--advertise-client-urls="+c.etcdURL(),
		fmt.Sprintf("--listen-peer-urls=http://127.0.0.1:%d", c.etcdPeer),
		fmt.Sprintf("--initial-advertise-peer-urls=http://127.0.0.1:%d", c.etcdPeer),
		fmt.Sprintf("--initial-cluster=testcluster=http://127.0.0.1:%d", c.etcdPeer),
		"--initial-cluster-state=new",
		"--unsafe-no-fsync",
		"--log-level=warn",
	)
	c.apiserver = c.newProc("kube-apiserver", "kube-apiserver", fg(withOverrides([]string{
		"--etcd-servers=" + c.etcdURL(),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", c.apiPort),
		"--endpoint-reconciler-type=none",
		"--tls-cert-file=" + c.pki.serverCert,
		"--tls-private-key-file=" + c.pki.serverKey,
		"--client-ca-file=" + c.pki.caCert,
		"--token-auth-file=" + c.path("tokens.csv"),
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + c.pki.saPub,
		"--service-account-signing-key-file=" + c.pki.saKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=Node,RBAC",
		"--runtime-config=" + c.runtimeConfig,
		"--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
		"--profiling=false",
	}, c.apiserverArgs...))...)
	admin := c.path("admin.kubeconfig")
	if c.components["scheduler"] {
		c.clients = append(c.clients, c.newProc("kube-scheduler", "kube-scheduler", fg([]string{
			"--kubeconfig=" + admin, "--leader-elect=false", "--secure-port=0", "--profiling=false",
		})...))
	}
	if c.components["controller-manager"] {
		c.clients = append(c.clients, c.newProc("kube-controller-manager", "kube-controller-manager", fg([]string{
			"--kubeconfig=" + admin, "--leader-elect=false", "--secure-port=0", "--profiling=false",
			"--service-account-private-key-file=" + c.pki.saKey,
			"--root-ca-file=" + c.pki.caCert,
			"--use-service-account-credentials=false",
			"--controllers=" + c.controllers,
		})...))
	}
	c.kubeletRoots = map[string]string{}
	for _, node := range c.kubelets {
		port, err := freePort()
		if err != nil {
			return err
		}
		root := filepath.Join(c.path("kubelets"), node)
		c.kubeletRoots[node] = root
		c.clients = append(c.clients, c.newProc("kubelet-"+node, "hollow-kubelet", fg([]string{
			"--kubeconfig=" + c.path("kubelet-"+node+".kubeconfig"),
			"--node-name=" + node,
			"--root-dir=" + root,
			fmt.Sprintf("--kubelet-port=%d", port),
			// Logs when the DRA manager has wiped the node's old ResourceSlices.
			"--vmodule=dra_plugin_manager=3",
		})...))
	}
	return nil
}

func kubeconfig(server string, caPEM []byte, user string, userFields string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: testcluster
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: %s
  user:
%s
contexts:
- name: testcluster
  context: {cluster: testcluster, user: %s}
current-context: testcluster
`, server, b64(caPEM), user, userFields, user)
}

func (c *cluster) writeKubeconfigs() error {
	files := map[string]string{
		"admin.kubeconfig": kubeconfig(c.server(), c.pki.caPEM, "admin",
			"    client-certificate-data: "+b64(c.pki.adminPEM)+"\n    client-key-data: "+b64(c.pki.adminKPEM)),
		"token-admin.kubeconfig": kubeconfig(c.server(), c.pki.caPEM, "token-admin", "    token: "+c.adminToken),
		"restricted.kubeconfig":  kubeconfig(c.server(), c.pki.caPEM, "restricted", "    token: "+c.restrictedToken),
	}
	for node, t := range c.nodeTokens {
		files["kubelet-"+node+".kubeconfig"] = kubeconfig(c.server(), c.pki.caPEM, "system:node:"+node, "    token: "+t)
	}
	for name, content := range files {
		if err := os.WriteFile(c.path(name), []byte(content), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// waitFor polls check every interval until it returns nil, the process dies or
// the timeout passes.
func waitFor(what string, p *proc, timeout time.Duration, check func() error) error {
	deadline := time.Now().Add(timeout)
	var err error
	for {
		if err = check(); err == nil {
			return nil
		}
		if p != nil {
			if gone, why := p.exited(); gone {
				return fmt.Errorf("%s exited (%v) before %s; see %s", p.name, why, what, p.log)
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %v waiting for %s: %v", timeout, what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (c *cluster) get(url string) ([]byte, error) {
	resp, err := c.httpClient.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return body, fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
	}
	return body, nil
}

func (c *cluster) startEtcd() error {
	if err := c.etcd.start(); err != nil {
		return err
	}
	return waitFor("etcd /health", c.etcd, 60*time.Second, func() error {
		body, err := c.get(c.etcdURL() + "/health")
		if err != nil {
			return err
		}
		if !strings.Contains(string(body), `"true"`) {
			return errors.New(string(body))
		}
		return nil
	})
}

func (c *cluster) startAPIServer() error {
	if err := c.apiserver.start(); err != nil {
		return err
	}
	return waitFor("kube-apiserver /readyz", c.apiserver, 120*time.Second, func() error {
		_, err := c.get(c.server() + "/readyz")
		return err
	})
}

var nodeReadyLine = regexp.MustCompile(`Deleted ResourceSlices`)

func (c *cluster) waitKubelet(p *proc, node string) error {
	err := waitFor("node "+node+" Ready", p, 120*time.Second, func() error {
		body, err := c.get(c.server() + "/api/v1/nodes/" + node)
		if err != nil {
			return err
		}
		var n struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
		if err := json.Unmarshal(body, &n); err != nil {
			return err
		}
		for _, cond := range n.Status.Conditions {
			if cond.Type == "Ready" && cond.Status == "True" {
				return nil
			}
		}
		return fmt.Errorf("node %s not Ready yet", node)
	})
	if err != nil {
		return err
	}
	// At start the kubelet's DRA manager deletes all ResourceSlices of its
	// node; wait for that, so that slices a test creates now stay.
	_ = waitFor("the DRA manager's startup ResourceSlice cleanup on "+node, p, 20*time.Second, func() error {
		data, err := os.ReadFile(p.log)
		if err != nil {
			return err
		}
		if !nodeReadyLine.Match(data) {
			return errors.New("not yet")
		}
		return nil
	})
	return nil
}

func (c *cluster) start() error {
	t0 := time.Now()
	if err := c.startEtcd(); err != nil {
		return err
	}
	logf("etcd healthy after %.1fs", time.Since(t0).Seconds())
	if err := c.startAPIServer(); err != nil {
		return err
	}
	logf("kube-apiserver ready after %.1fs", time.Since(t0).Seconds())
	for _, p := range c.clients {
		if err := p.start(); err != nil {
			return err
		}
	}
	for i, node := range c.kubelets {
		p := c.clients[len(c.clients)-len(c.kubelets)+i]
		if err := c.waitKubelet(p, node); err != nil {
			return err
		}
		logf("node %s Ready after %.1fs", node, time.Since(t0).Seconds())
	}
	// Clients that died at once (bad flag, port in use) are an error now, not
	// a mystery later.
	for _, p := range c.clients {
		if gone, why := p.exited(); gone {
			return fmt.Errorf("%s exited (%v); see %s", p.name, why, p.log)
		}
	}
	return c.writeEnv()
}

func envName(s string) string {
	return strings.ToUpper(regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(s, "_"))
}

func (c *cluster) writeEnv() error {
	var b strings.Builder
	kv := func(k, v string) { fmt.Fprintf(&b, "%s=%s\n", k, strconv.Quote(v)) }
	kv("DRA_CLUSTER_DIR", c.dir)
	kv("KUBECONFIG", c.path("admin.kubeconfig"))
	kv("DRA_CLUSTER_ADMIN_KUBECONFIG", c.path("admin.kubeconfig"))
	kv("DRA_CLUSTER_TOKEN_ADMIN_KUBECONFIG", c.path("token-admin.kubeconfig"))
	kv("DRA_CLUSTER_RESTRICTED_KUBECONFIG", c.path("restricted.kubeconfig"))
	kv("DRA_CLUSTER_SERVER", c.server())
	kv("DRA_CLUSTER_ETCD", c.etcdURL())
	kv("DRA_CLUSTER_CA", c.pki.caCert)
	kv("DRA_CLUSTER_BIN", c.bin)
	kv("DRA_CLUSTER_KUBECTL", filepath.Join(c.bin, "kubectl"))
	kv("DRA_CLUSTER_SUPERVISOR_PID", strconv.Itoa(os.Getpid()))
	var pids []string
	for _, p := range append([]*proc{c.etcd, c.apiserver}, c.clients...) {
		pid := p.pid()
		kv("DRA_CLUSTER_PID_"+envName(p.name), strconv.Itoa(pid))
		if pid != 0 {
			pids = append(pids, strconv.Itoa(pid))
		}
	}
	kv("DRA_CLUSTER_PIDS", strings.Join(pids, " "))
	var nodes []string
	for _, node := range c.kubelets {
		nodes = append(nodes, node)
		kv("DRA_CLUSTER_KUBELET_ROOT_"+envName(node), c.kubeletRoots[node])
	}
	kv("DRA_CLUSTER_NODES", strings.Join(nodes, " "))
	tmp := c.path("env.tmp")
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.path("env"))
}

func (c *cluster) compact() (int64, error) {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{c.etcdURL()}, DialTimeout: 5 * time.Second})
	if err != nil {
		return 0, err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := cli.Get(ctx, "compact_rev_key", clientv3.WithCountOnly())
	if err != nil {
		return 0, err
	}
	rev := resp.Header.Revision
	if _, err := cli.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		return 0, err
	}
	return rev, nil
}

// teardown stops everything: clients, then kube-apiserver, then etcd.
func (c *cluster) teardown() {
	c.tdMu.Lock()
	defer c.tdMu.Unlock()
	if c.tornDown {
		return
	}
	c.tornDown = true
	var wg sync.WaitGroup
	for _, p := range c.clients {
		wg.Add(1)
		go func(p *proc) { defer wg.Done(); p.stop(5 * time.Second) }(p)
	}
	wg.Wait()
	if c.apiserver != nil {
		c.apiserver.stop(apiserverGrace)
	}
	if c.etcd != nil {
		c.etcd.stop(5 * time.Second)
	}
}

// kubeletProc is the hollow kubelet of `node`, or nil.
func (c *cluster) kubeletProc(node string) *proc {
	for _, p := range c.clients {
		if p.name == "kubelet-"+node {
			return p
		}
	}
	return nil
}

// kubeletCommand runs restart-kubelet, stop-kubelet and start-kubelet. The
// kubelet keeps its root directory (its DRA checkpoint, plugin registry and
// pods) across them, as a kubelet restart or a node reboot does.
func (c *cluster) kubeletCommand(verb, node string) string {
	p := c.kubeletProc(node)
	if p == nil {
		return "ERR no kubelet for node " + strconv.Quote(node)
	}
	if verb == "restart-kubelet" || verb == "stop-kubelet" {
		p.stop(10 * time.Second)
	}
	if verb == "restart-kubelet" || verb == "start-kubelet" {
		if gone, _ := p.exited(); p.pid() != 0 && !gone {
			return "ERR the kubelet of " + node + " is running"
		}
		if err := p.start(); err != nil {
			return "ERR " + oneLine(err)
		}
		_ = c.writeEnv()
		return fmt.Sprintf("OK pid=%d", p.pid())
	}
	_ = c.writeEnv()
	return "OK"
}

func (c *cluster) command(line string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fields := strings.Fields(line); len(fields) == 2 && strings.HasSuffix(fields[0], "-kubelet") {
		switch fields[0] {
		case "restart-kubelet", "stop-kubelet", "start-kubelet":
			return c.kubeletCommand(fields[0], fields[1]), false
		}
	}
	switch strings.TrimSpace(line) {
	case "":
		return "", false
	case "restart-apiserver":
		c.apiserver.stop(apiserverGrace)
		if err := c.startAPIServer(); err != nil {
			return "ERR " + oneLine(err), false
		}
		_ = c.writeEnv()
		return fmt.Sprintf("OK pid=%d", c.apiserver.pid()), false
	case "stop-apiserver":
		c.apiserver.stop(apiserverGrace)
		_ = c.writeEnv()
		return "OK", false
	case "start-apiserver":
		if c.apiserver.pid() != 0 {
			return "ERR kube-apiserver is running", false
		}
		if err := c.startAPIServer(); err != nil {
			return "ERR " + oneLine(err), false
		}
		_ = c.writeEnv()
		return fmt.Sprintf("OK pid=%d", c.apiserver.pid()), false
	case "compact":
		rev, err := c.compact()
		if err != nil {
			return "ERR " + oneLine(err), false
		}
		return fmt.Sprintf("OK revision=%d", rev), false
	case "ping":
		return "OK", false
	case "stop":
		return "OK", true
	default:
		return "ERR unknown command " + strconv.Quote(strings.TrimSpace(line)) +
			" (restart-apiserver, stop-apiserver, start-apiserver, restart-kubelet NODE, stop-kubelet NODE,"+
			" start-kubelet NODE, compact, ping, stop)", false
	}
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

func main() {
	var (
		c          cluster
		components string
		kubelets   stringList
	)
	flag.StringVar(&c.dir, "dir", "", "directory for PKI, data, kubeconfigs and logs (created; required)")
	flag.StringVar(&c.bin, "bin", "", "directory with etcd, kube-apiserver, ... (default: this program's directory)")
	flag.StringVar(&c.featureGates, "feature-gates", "", "--feature-gates for every component")
	flag.StringVar(&c.runtimeConfig, "runtime-config", defaultRuntimeConfig, "kube-apiserver --runtime-config")
	flag.StringVar(&components, "components", "apiserver", "comma-separated: apiserver, scheduler, controller-manager (etcd always runs)")
	flag.StringVar(&c.controllers, "controllers", "resourceclaim-controller,garbage-collector-controller", "kube-controller-manager --controllers")
	flag.Var(&kubelets, "kubelet", "run a hollow kubelet for this node name (repeatable)")
	var apiserverArgs stringList
	flag.Var(&apiserverArgs, "apiserver-arg", "a kube-apiserver flag replacing the default of that name, e.g. --authorization-mode=RBAC (repeatable)")
	flag.IntVar(&c.verbosity, "v", 0, "--v for the Kubernetes components")
	flag.Parse()
	if c.dir == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: testcluster --dir D [--bin BINDIR] [flags]")
		flag.PrintDefaults()
		os.Exit(2)
	}
	var err error
	if c.dir, err = filepath.Abs(c.dir); err != nil {
		fail(err)
	}
	if c.bin == "" {
		exe, err := os.Executable()
		if err != nil {
			fail(err)
		}
		c.bin = filepath.Dir(exe)
	}
	if c.bin, err = filepath.Abs(c.bin); err != nil {
		fail(err)
	}
	c.components = map[string]bool{}
	for _, comp := range strings.Split(components, ",") {
		switch comp = strings.TrimSpace(comp); comp {
		case "apiserver", "scheduler", "controller-manager":
			c.components[comp] = true
		case "", "etcd":
		default:
			fail(fmt.Errorf("unknown component %q", comp))
		}
	}
	c.kubelets = kubelets
	c.apiserverArgs = apiserverArgs
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		fail(err)
	}

	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	signal.Ignore(syscall.SIGPIPE)
	go func() {
		s := <-signals
		logf("%v: tearing down", s)
		c.teardown()
		os.Exit(1)
	}()
	// The test went away: stdin is closed; same as a signal.
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()

	if err := c.setup(); err != nil {
		c.teardown()
		fail(err)
	}
	started := make(chan error, 1)
	t0 := time.Now()
	go func() { started <- c.start() }()
	select {
	case err := <-started:
		if err != nil {
			c.teardown()
			fail(err)
		}
	case _, ok := <-lines:
		// Input before READY is not expected; EOF means the test is gone.
		if !ok {
			logf("stdin closed during start-up: tearing down")
		}
		c.teardown()
		os.Exit(1)
	}
	logf("ready after %.1fs (dir %s)", time.Since(t0).Seconds(), c.dir)
	fmt.Printf("READY %s\n", c.path("admin.kubeconfig"))

	for line := range lines {
		reply, stop := c.command(line)
		if reply == "" {
			continue
		}
		if stop {
			c.teardown()
			fmt.Println(reply)
			os.Exit(0)
		}
		fmt.Println(reply)
	}
	logf("stdin closed: tearing down")
	c.teardown()
}

func fail(err error) {
	fmt.Printf("ERR %s\n", oneLine(err))
	logf("%v", err)
	os.Exit(1)
}

// withOverrides returns defaults without the flags that extra sets again,
// followed by extra: slice-valued flags such as --authorization-mode would
// otherwise accumulate both values.
func withOverrides(defaults []string, extra ...string) []string {
	name := func(arg string) string {
		if i := strings.IndexByte(arg, '='); i >= 0 {
			return arg[:i]
		}
		return arg
	}
	overridden := map[string]bool{}
	for _, a := range extra {
		overridden[name(a)] = true
	}
	var out []string
	for _, a := range defaults {
		if !overridden[name(a)] {
			out = append(out, a)
		}
	}
	return append(out, extra...)
}
