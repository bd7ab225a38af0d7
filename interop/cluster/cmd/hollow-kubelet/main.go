// Command hollow-kubelet runs the real kubelet of k8s.io/kubernetes v1.37.2
// without a container runtime, the way kubemark's hollow node does
// (k8s.io/kubernetes/pkg/kubemark: a fake CRI runtime and image service, fake
// cadvisor, mounter and OS), with one difference that matters to dra: the
// container manager hands every Dynamic Resource Allocation call to the real
// kubelet DRA manager (k8s.io/kubernetes/pkg/kubelet/cm/dra). So DRA kubelet
// plugins register through <root-dir>/plugins_registry, and pods with claims
// get NodePrepareResources / NodeUnprepareResources calls as on a real node.
//
// The kubelet serves on 127.0.0.1 only; its healthz port is off.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/component-base/version"
	internalapi "k8s.io/cri-api/pkg/apis"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	remote "k8s.io/cri-client/pkg"
	fakeremote "k8s.io/cri-client/pkg/fake"
	"k8s.io/klog/v2"
	pluginwatcherapi "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	"k8s.io/kubernetes/pkg/kubelet/apis/config"
	cadvisortest "k8s.io/kubernetes/pkg/kubelet/cadvisor/testing"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	"k8s.io/kubernetes/pkg/kubelet/cm/dra"
	"k8s.io/kubernetes/pkg/kubelet/cm/resourceupdates"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/config"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/pluginmanager/cache"
	"k8s.io/kubernetes/pkg/kubelet/status"
	kubetypes "k8s.io/kubernetes/pkg/kubelet/types"
	"k8s.io/kubernetes/pkg/kubemark"
)

// draContainerManager is the stub container manager of the hollow node with
// the DRA methods answered by a real DRA manager.
type draContainerManager struct {
	cm.ContainerManager
	dra *dra.Manager
}

func (m *draContainerManager) Start(ctx context.Context, node *v1.Node, activePods cm.ActivePodsFunc,
	getNode cm.GetNodeFunc, sourcesReady kubeletconfig.SourcesReady, podStatus status.PodStatusProvider,
	runtime internalapi.RuntimeService, localStorageCapacityIsolation bool) error {
	if err := m.ContainerManager.Start(ctx, node, activePods, getNode, sourcesReady, podStatus, runtime,
		localStorageCapacityIsolation); err != nil {
		return err
	}
	return m.dra.Start(ctx, dra.ActivePodsFunc(activePods), dra.GetNodeFunc(getNode), sourcesReady)
}

func (m *draContainerManager) GetPluginRegistrationHandlers() map[string]cache.PluginHandler {
	return map[string]cache.PluginHandler{pluginwatcherapi.DRAPlugin: m.dra.GetWatcherHandler()}
}

func (m *draContainerManager) GetResources(ctx context.Context, pod *v1.Pod, container *v1.Container) (*kubecontainer.RunContainerOptions, error) {
	opts, err := m.ContainerManager.GetResources(ctx, pod, container)
	if err != nil {
		return nil, err
	}
	info, err := m.dra.GetResources(pod, container)
	if err != nil {
		return nil, err
	}
	opts.CDIDevices = append(opts.CDIDevices, info.CDIDevices...)
	return opts, nil
}

func (m *draContainerManager) PrepareDynamicResources(ctx context.Context, pod *v1.Pod) error {
	return m.dra.PrepareResources(ctx, pod)
}

func (m *draContainerManager) UnprepareDynamicResources(ctx context.Context, pod *v1.Pod) error {
	return m.dra.UnprepareResources(ctx, pod)
}

func (m *draContainerManager) PodMightNeedToUnprepareResources(uid types.UID) bool {
	return m.dra.PodMightNeedToUnprepareResources(uid)
}

func (m *draContainerManager) UpdateAllocatedResourcesStatus(logger klog.Logger, pod *v1.Pod, st *v1.PodStatus) {
	m.dra.UpdateAllocatedResourcesStatus(logger, pod, st)
}

func (m *draContainerManager) Updates() <-chan resourceupdates.Update {
	return m.dra.Updates()
}

// cdiLoggingRuntime is the CRI client with each CreateContainer logged with
// the CDI devices the kubelet asks the runtime to inject, so that tests can
// check what a DRA driver's NodePrepareResources answer turned into:
//
//	"CreateContainer" pod="default/pod-1" container="c" cdiDevices=["k8s.gpu.example.com/claim=..."]
type cdiLoggingRuntime struct {
	internalapi.RuntimeService
}

func (r cdiLoggingRuntime) CreateContainer(ctx context.Context, podSandboxID string,
	config *runtimeapi.ContainerConfig, sandboxConfig *runtimeapi.PodSandboxConfig) (string, error) {
	devices := []string{}
	for _, d := range config.GetCDIDevices() {
		devices = append(devices, d.GetName())
	}
	pod := sandboxConfig.GetMetadata().GetNamespace() + "/" + sandboxConfig.GetMetadata().GetName()
	klog.InfoS("CreateContainer", "pod", pod, "container", config.GetMetadata().GetName(), "cdiDevices", devices)
	return r.RuntimeService.CreateContainer(ctx, podSandboxID, config, sandboxConfig)
}

func main() {
	var (
		kubeconfig   = flag.String("kubeconfig", "", "kubeconfig of the node's API client")
		nodeName     = flag.String("node-name", "hollow-node", "name of the Node object")
		rootDir      = flag.String("root-dir", "", "kubelet root directory (plugins_registry, pods, dra_manager_state); required")
		port         = flag.Int("kubelet-port", 0, "port of the kubelet API on 127.0.0.1 (0: the kubelet's default, 10250)")
		featureGates = flag.String("feature-gates", "", "feature gates, A=true,B=false")
		maxPods      = flag.Int("max-pods", 110, "pods the node accepts")
		printVersion = flag.Bool("version", false, "print the version and exit")
	)
	klog.InitFlags(nil)
	flag.Parse()
	if *printVersion {
		fmt.Println(version.Get().GitVersion)
		return
	}
	if err := run(*kubeconfig, *nodeName, *rootDir, *port, *featureGates, *maxPods); err != nil {
		klog.ErrorS(err, "hollow-kubelet failed")
		os.Exit(1)
	}
}

func run(kubeconfig, nodeName, rootDir string, port int, featureGates string, maxPods int) error {
	if kubeconfig == "" || rootDir == "" {
		return fmt.Errorf("--kubeconfig and --root-dir are required")
	}
	rootDir, err := filepath.Abs(rootDir)
	if err != nil {
		return err
	}
	if featureGates != "" {
		if err := utilfeature.DefaultMutableFeatureGate.Set(featureGates); err != nil {
			return fmt.Errorf("--feature-gates: %w", err)
		}
	}
	for _, d := range []string{"static-pods", "pod-logs"} {
		if err := os.MkdirAll(filepath.Join(rootDir, d), 0o755); err != nil {
			return err
		}
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	logger := klog.FromContext(ctx)

	restConfig, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	restConfig.UserAgent = "hollow-kubelet"
	restConfig.ContentType = "application/vnd.kubernetes.protobuf"
	client, err := clientset.NewForConfig(restConfig)
	if err != nil {
		return err
	}

	flags := options.NewKubeletFlags()
	flags.RootDirectory = rootDir
	flags.HostnameOverride = nodeName
	flags.MaxContainerCount = 100
	flags.MaxPerPodContainerCount = 2
	cfg, err := options.NewKubeletConfiguration()
	if err != nil {
		return err
	}
	cfg.Address = "127.0.0.1"
	if port != 0 {
		cfg.Port = int32(port)
	}
	cfg.ReadOnlyPort = 0
	cfg.HealthzPort = 0
	cfg.EnableServer = true
	cfg.StaticPodPath = filepath.Join(rootDir, "static-pods")
	cfg.PodLogsDir = filepath.Join(rootDir, "pod-logs")
	cfg.StaticPodURL = ""
	cfg.FileCheckFrequency.Duration = 20 * time.Second
	cfg.HTTPCheckFrequency.Duration = 20 * time.Second
	cfg.SyncFrequency.Duration = 10 * time.Second
	cfg.NodeStatusUpdateFrequency.Duration = 10 * time.Second
	cfg.NodeStatusReportFrequency.Duration = 5 * time.Minute
	cfg.MaxPods = int32(maxPods)
	cfg.ClusterDNS = []string{}
	cfg.ProviderID = "hollow://" + nodeName
	cfg.CgroupsPerQOS = false
	cfg.CgroupRoot = ""
	cfg.KubeletCgroups = ""
	cfg.SystemCgroups = ""
	cfg.EnableControllerAttachDetach = false
	cfg.EnableDebuggingHandlers = true
	cfg.HairpinMode = config.HairpinVeth
	cfg.ResolverConfig = kubetypes.ResolvConfDefault
	cfg.RegisterNode = true
	cfg.LocalStorageCapacityIsolation = true
	cfg.ProtectKernelDefaults = false
	heartbeatConfig := *restConfig
	heartbeatConfig.Timeout = cfg.NodeStatusUpdateFrequency.Duration
	heartbeatConfig.QPS = -1
	heartbeatClient, err := clientset.NewForConfig(&heartbeatConfig)
	if err != nil {
		return err
	}

	runtimeEndpoint := "unix://" + filepath.Join(rootDir, "cri.sock")
	fakeRuntime := fakeremote.NewFakeRemoteRuntime()
	if err := fakeRuntime.Start(runtimeEndpoint); err != nil {
		return fmt.Errorf("fake CRI runtime: %w", err)
	}
	defer fakeRuntime.Stop()
	runtimeService, err := remote.NewRemoteRuntimeServiceBuilder().
		WithEndpoint(runtimeEndpoint).
		WithConnectionTimeout(15 * time.Second).
		Build(ctx)
	if err != nil {
		return fmt.Errorf("CRI runtime client: %w", err)
	}

	draManager, err := dra.NewManager(logger, client, rootDir)
	if err != nil {
		return fmt.Errorf("DRA manager: %w", err)
	}
	containerManager := &draContainerManager{ContainerManager: cm.NewStubContainerManager(), dra: draManager}

	hk := kubemark.NewHollowKubelet(flags, cfg, client, heartbeatClient,
		&cadvisortest.Fake{NodeName: nodeName}, fakeRuntime.ImageService, cdiLoggingRuntime{runtimeService}, containerManager)
	logger.Info("starting hollow kubelet", "node", nodeName, "rootDir", rootDir, "version", version.Get().GitVersion)
	go hk.Run(ctx)
	<-ctx.Done()
	logger.Info("hollow kubelet stopping")
	return nil
}
