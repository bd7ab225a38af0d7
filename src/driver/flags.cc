#include "dra/driver/flags.h"

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "dra/driver/controller.h"
#include "dra/driver/kubernetes.h"
#include "dra/kube/in_cluster.h"
#include "dra/kube/kubeconfig.h"
#include "dra/metrics/http_server.h"
#include "driver/cli_flags.h"

namespace dra::driver {
namespace {

// --kubeconfig given: that file, as client-go's BuildConfigFromFlags reads
// it; else the pod's in-cluster configuration (dra-example-driver's rule).
Result<std::shared_ptr<kube::Client>> NewClient(const PluginFlags& flags) {
  kube::Environment env = kube::Environment::FromProcess();
  Result<kube::RestConfig> config = Error{""};
  if (!flags.kubeconfig.empty()) {
    kube::ConfigFlags config_flags;
    config_flags.kubeconfig = flags.kubeconfig;
    env.kubeconfig.reset();
    config = kube::LoadRestConfig(config_flags, env, kube::ConfigDefaults::kClientGo);
  } else if (kube::InClusterPossible(env)) {
    config = kube::InClusterConfig(env);
  } else {
    return Error{
        "no Kubernetes configuration: give --kubeconfig (KUBECONFIG), run in a pod, or give "
        "--claims to read claims from files"};
  }
  if (!config) {
    // kubectl's texts start with "error: "; here they follow "dra driver: ".
    std::string message = config.error();
    if (message.rfind("error: ", 0) == 0) message.erase(0, 7);
    return Error{message};
  }
  config->qps = flags.kube_api_qps;
  config->burst = flags.kube_api_burst;
  if (config->user_agent.empty()) config->user_agent = "dra-driver/" + flags.options.driver_name;
  return kube::Client::New(std::move(*config));
}

// --bind-address as the host part of HttpServer's "HOST:PORT" (IPv6 in brackets).
std::string ListenHost(const std::string& bind_address) {
  return bind_address.find(':') != std::string::npos ? "[" + bind_address + "]" : bind_address;
}

// The HTTP endpoints the flags ask for, on one server when the ports agree.
Result<std::vector<std::unique_ptr<metrics::HttpServer>>> Serve(const PluginFlags& flags,
                                                                metrics::Registry& registry,
                                                                Plugin& plugin) {
  metrics::HttpHandler metrics_handler = [&registry] {
    return metrics::HttpAnswer{200, metrics::kTextContentType, registry.Expose(), {}, {}, {}};
  };
  metrics::HttpHandler health_handler = [&plugin] {
    Status s = plugin.CheckLiveness();
    if (s.ok()) return metrics::HttpAnswer{200, "text/plain; charset=utf-8", "ok\n", {}, {}, {}};
    return metrics::HttpAnswer{503, "text/plain; charset=utf-8", s.error() + "\n", {}, {}, {}};
  };
  std::map<int, std::map<std::string, metrics::HttpHandler>> ports;
  if (flags.metrics_port >= 0) ports[flags.metrics_port]["/metrics"] = metrics_handler;
  if (flags.healthcheck_port >= 0) {
    ports[flags.healthcheck_port]["/healthz"] = health_handler;
    ports[flags.healthcheck_port]["/livez"] = health_handler;
  }
  std::vector<std::unique_ptr<metrics::HttpServer>> servers;
  std::string host = ListenHost(flags.bind_address);
  for (auto& [port, routes] : ports) {
    std::string paths;
    for (const auto& [path, handler] : routes) paths += " " + path;
    auto server = metrics::HttpServer::Start(host + ":" + std::to_string(port), std::move(routes));
    if (!server) return server.failure();
    std::cerr << "dra driver: serving" << paths << " on " << (host.empty() ? "*" : host) << ":"
              << (*server)->port() << "\n";
    servers.push_back(std::move(*server));
  }
  return servers;
}

}  // namespace

void AddPluginFlags(CLI::App& app, PluginFlags& flags, const std::string& default_driver_name) {
  PluginOptions& o = flags.options;
  if (!default_driver_name.empty()) o.driver_name = default_driver_name;
  auto* driver = app.add_option("--driver-name", o.driver_name, "DRA driver name")
                     ->envname("DRIVER_NAME")
                     ->capture_default_str();
  if (default_driver_name.empty()) driver->required();
  app.add_option("--node-name", o.node_name, "node name (pool name, spec.nodeName)")
      ->envname("NODE_NAME")
      ->required();
  app.add_option("--node-uid", o.node_uid,
                 "UID of the Node object (owner of the ResourceSlices); looked up in Kubernetes "
                 "mode when not given")
      ->envname("NODE_UID");
  app.add_option("--cdi-root", o.cdi_root, "directory for the claims' CDI specs")
      ->envname("CDI_ROOT")
      ->capture_default_str();
  app.add_option("--kubelet-registrar-directory-path", o.registrar_directory,
                 "the kubelet's plugin registration directory")
      ->envname("KUBELET_REGISTRAR_DIRECTORY_PATH")
      ->capture_default_str();
  app.add_option("--kubelet-plugins-directory-path", o.plugins_directory,
                 "parent of the plugin data directory <path>/<driver name>")
      ->envname("KUBELET_PLUGINS_DIRECTORY_PATH")
      ->capture_default_str();
  app.add_option("--pod-uid", o.pod_uid, "pod UID; enables rolling updates")->envname("POD_UID");
  app.add_option("--kubeconfig", flags.kubeconfig,
                 "kubeconfig file; without it and without --claims, the pod's in-cluster "
                 "configuration")
      ->envname("KUBECONFIG");
  app.add_option("--kube-api-qps", flags.kube_api_qps,
                 "requests per second to the API server (negative: unlimited)")
      ->envname("KUBE_API_QPS")
      ->capture_default_str();
  app.add_option("--kube-api-burst", flags.kube_api_burst, "burst of requests to the API server")
      ->envname("KUBE_API_BURST")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--metrics-port", flags.metrics_port,
                 "port of the Prometheus /metrics endpoint; -1 = none, 0 = any free port")
      ->envname("METRICS_PORT")
      ->check(CLI::Range(-1, 65535))
      ->capture_default_str();
  app.add_option("--healthcheck-port", flags.healthcheck_port,
                 "port of the HTTP liveness endpoint /healthz; -1 = none, 0 = any free port")
      ->envname("HEALTHCHECK_PORT")
      ->check(CLI::Range(-1, 65535))
      ->capture_default_str();
  app.add_option("--bind-address", flags.bind_address,
                 "address the metrics and health endpoints listen on; empty = every interface")
      ->envname("BIND_ADDRESS");
  app.add_option("--claims", flags.claims_path,
                 "ResourceClaim manifests (file or directory); given = file mode, no cluster")
      ->envname("DRA_CLAIMS")
      ->required();
  app.add_option("--resource-slices", flags.resource_slices_path,
                 "file the ResourceSlices are written to, - = standard output (file mode's "
                 "default); in Kubernetes mode they go to the API server unless this is given")
      ->envname("DRA_RESOURCE_SLICES");
  app.add_option("--resource-slices-format", flags.resource_slices_format, "yaml or json")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  app.add_option("--health-resend-seconds", flags.health_resend_seconds,
                 "health streams re-send the full list this often")
      ->check(CLI::Range(0.001, 3600.0))
      ->capture_default_str();
  app.add_option("--slice-resync-seconds", flags.slice_resync_seconds,
                 "Kubernetes mode: compare the published ResourceSlices with the desired ones "
                 "this often, restoring edited or deleted slices; 0 = only on changes")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
}

struct DriverCommandLine::Impl {
  CLI::App app;
  PluginFlags flags;
  Impl(std::string description, std::string program)
      : app(std::move(description), std::move(program)) {}
};

DriverCommandLine::DriverCommandLine(std::string program, std::string description,
                                     const std::string& default_driver_name)
    : impl_(std::make_unique<Impl>(std::move(description), std::move(program))) {
  AddPluginFlags(impl_->app, impl_->flags, default_driver_name);
}

DriverCommandLine::~DriverCommandLine() = default;

void DriverCommandLine::AddIntFlag(const std::string& name, const std::string& env,
                                   const std::string& help, int* value, int min, int max) {
  CLI::Option* option =
      impl_->app.add_option(name, *value, help)->check(CLI::Range(min, max))->capture_default_str();
  if (!env.empty()) option->envname(env);
}

void DriverCommandLine::AddStringFlag(const std::string& name, const std::string& env,
                                      const std::string& help, std::string* value) {
  CLI::Option* option = impl_->app.add_option(name, *value, help)->capture_default_str();
  if (!env.empty()) option->envname(env);
}

std::optional<int> DriverCommandLine::Parse(int argc, char** argv) {
  try {
    impl_->app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return impl_->app.exit(e);
  }
  return std::nullopt;
}

PluginFlags& DriverCommandLine::flags() { return impl_->flags; }

int RunPluginFromFlags(Driver& driver, PluginFlags& flags) {
  PluginOptions& options = flags.options;
  options.health_resend_period =
      std::chrono::milliseconds(static_cast<std::int64_t>(flags.health_resend_seconds * 1000));
  std::unique_ptr<ClaimSource> claims;
  std::unique_ptr<SlicePublisher> publisher;
  std::unique_ptr<DeviceStatusWriter> status_writer;
  if (KubernetesMode(flags)) {
    auto client = NewClient(flags);
    if (!client) {
      std::cerr << "dra driver: " << client.error() << "\n";
      return 1;
    }
    if (options.node_uid.empty()) {
      auto uid = GetNodeUid(**client, options.node_name);
      if (!uid) {
        std::cerr << "dra driver: " << uid.error() << "\n";
        return 1;
      }
      options.node_uid = *uid;
    }
    claims = NewKubeClaimSource(*client);
    if (flags.write_device_status) {
      status_writer = NewKubeDeviceStatusWriter(*client, options.driver_name);
      options.status_writer = status_writer.get();
    }
    if (flags.resource_slices_path.empty()) {
      KubeSlicePublisherOptions publish;
      publish.driver_name = options.driver_name;
      publish.node_name = options.node_name;
      publish.event_target.name = options.node_name;
      publish.event_target.uid = options.node_uid;
      publisher = NewKubeSlicePublisher(*client, std::move(publish));
      options.publish_resync_period =
          std::chrono::milliseconds(static_cast<std::int64_t>(flags.slice_resync_seconds * 1000));
    }
  } else {
    claims = NewManifestClaimSource(flags.claims_path);
  }
  if (!publisher) {
    if (flags.resource_slices_path.empty() || flags.resource_slices_path == "-") {
      publisher = NewStreamSlicePublisher(std::cout);
    } else {
      publisher = NewFileSlicePublisher(flags.resource_slices_path, flags.resource_slices_format);
    }
  }
  metrics::Registry registry;
  options.metrics = &registry;
  std::vector<std::unique_ptr<metrics::HttpServer>> servers;
  auto started = [&](Plugin& plugin) -> Status {
    auto serving = Serve(flags, registry, plugin);
    if (!serving) return serving.failure();
    servers = std::move(*serving);
    return {};
  };
  auto stopping = [&] {
    for (auto& s : servers) s->Stop();
  };
  return RunPlugin(driver, *claims, *publisher, options, started, stopping);
}

void AddControllerFlags(CLI::App& app, ControllerFlags& flags) {
  app.add_flag("--controller", flags.enabled,
               "Run as the central controller publishing network-attached pools (no kubelet "
               "plugin), with leader election among replicas");
  app.add_flag("--leader-election,!--no-leader-election", flags.leader_election,
               "controller: elect one publishing replica through a Lease")
      ->capture_default_str();
  app.add_option("--leader-election-namespace", flags.lease_namespace,
                 "controller: namespace of the Lease (default $NAMESPACE, else default)")
      ->envname("LEADER_ELECTION_NAMESPACE");
  app.add_option("--leader-election-lease-name", flags.lease_name,
                 "controller: name of the Lease (default the driver name)");
  app.add_option("--leader-election-identity", flags.identity,
                 "controller: this replica's identity (default the host name)")
      ->envname("POD_NAME");
  app.add_option("--leader-election-lease-duration", flags.lease_duration,
                 "controller: how long a Lease is held without renewal")
      ->capture_default_str();
  app.add_option("--leader-election-renew-deadline", flags.renew_deadline,
                 "controller: how long the leader retries renewing before giving up")
      ->capture_default_str();
  app.add_option("--leader-election-retry-period", flags.retry_period,
                 "controller: how often candidates try to acquire or renew")
      ->capture_default_str();
}

int RunControllerFromFlags(Driver& driver, PluginFlags& plugin, const ControllerFlags& flags) {
  if (!KubernetesMode(plugin)) {
    std::cerr << "error: --controller publishes through the Kubernetes API; it cannot be combined "
                 "with --claims\n";
    return 2;
  }
  ControllerOptions options;
  options.driver_name = plugin.options.driver_name;
  options.leader_election = flags.leader_election;
  options.lease_name = flags.lease_name;
  options.identity = flags.identity;
  options.lease_namespace = flags.lease_namespace;
  if (options.lease_namespace.empty()) {
    const char* ns = std::getenv("NAMESPACE");
    options.lease_namespace = ns != nullptr && *ns != '\0' ? ns : "default";
  }
  struct Timing {
    const char* flag;
    const std::string* text;
    std::chrono::milliseconds* out;
  };
  for (const Timing& t :
       {Timing{"--leader-election-lease-duration", &flags.lease_duration, &options.lease_duration},
        Timing{"--leader-election-renew-deadline", &flags.renew_deadline, &options.renew_deadline},
        Timing{"--leader-election-retry-period", &flags.retry_period, &options.retry_period}}) {
    auto parsed = kube::ParseRequestTimeout(*t.text);
    if (!parsed || parsed->count() == 0) {
      std::cerr << "error: " << t.flag << " " << *t.text
                << ": want a positive duration such as 15s or 500ms\n";
      return 2;
    }
    *t.out = *parsed;
  }
  options.publish_resync_period =
      std::chrono::milliseconds(static_cast<std::int64_t>(plugin.slice_resync_seconds * 1000));
  auto client = NewClient(plugin);
  if (!client) {
    std::cerr << "dra controller: " << client.error() << "\n";
    return 1;
  }
  KubeSlicePublisherOptions publish;
  publish.driver_name = options.driver_name;
  auto publisher = NewKubeSlicePublisher(*client, std::move(publish));
  metrics::Registry registry;
  options.metrics = &registry;
  std::unique_ptr<metrics::HttpServer> server;
  if (plugin.metrics_port >= 0) {
    std::string host = ListenHost(plugin.bind_address);
    auto started = metrics::HttpServer::Start(
        host + ":" + std::to_string(plugin.metrics_port),
        {{"/metrics", [&registry] {
            return metrics::HttpAnswer{200, metrics::kTextContentType, registry.Expose(), {}, {},
                                       {}};
          }}});
    if (!started) {
      std::cerr << "dra controller: " << started.error() << "\n";
      return 1;
    }
    server = std::move(*started);
    std::cerr << "dra controller: serving /metrics on " << (host.empty() ? "*" : host) << ":"
              << server->port() << "\n";
  }
  int rc = RunController(driver, *publisher, *client, options);
  if (server) server->Stop();
  return rc;
}

}  // namespace dra::driver
