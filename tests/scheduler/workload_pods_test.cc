// PodsOfWorkloads: the pods Kubernetes' workload controllers create.
#include "dra/scheduler/workload_pods.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dra::scheduler {
namespace {

std::vector<api::UnmodeledDocument> Unmodeled(std::string_view yaml) {
  api::ManifestSet set;
  api::ParseManifestText("in", yaml, api::ManifestOptions{}, set);
  EXPECT_TRUE(set.read_errors.empty());
  return std::move(set.unmodeled);
}

std::vector<std::string> Names(const std::vector<api::Pod>& pods) {
  std::vector<std::string> out;
  for (const api::Pod& p : pods) out.push_back(p.metadata.namespace_ + "/" + p.metadata.name);
  return out;
}

constexpr std::string_view kTemplate = R"(
  template:
    metadata: {labels: {app: x}}
    spec:
      containers:
      - name: c
        image: i
        resources: {claims: [{name: gpu}]}
      resourceClaims:
      - {name: gpu, resourceClaimTemplateName: one-gpu}
)";

TEST(WorkloadPods, ReplicasOfDeploymentsStatefulSetsAndJobs) {
  std::string yaml =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: "
      "team}\nspec:\n  replicas: 2" +
      std::string(kTemplate) +
      "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:" +
      std::string(kTemplate) +
      "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  "
      "parallelism: 3\n  completions: 2" +
      std::string(kTemplate) +
      "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: held}\nspec:\n  "
      "suspend: true" +
      std::string(kTemplate) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n";
  Result<std::vector<api::Pod>> pods = PodsOfWorkloads(Unmodeled(yaml), {}, "default");
  ASSERT_TRUE(pods.ok()) << pods.error();
  EXPECT_EQ(Names(*pods), (std::vector<std::string>{"team/web-0", "team/web-1", "default/db-0",
                                                    "default/j-0", "default/j-1"}));
  const api::Pod& p = (*pods)[0];
  EXPECT_EQ(p.metadata.labels.at("app"), "x");
  ASSERT_EQ(p.spec.resource_claims.size(), 1u);
  EXPECT_EQ(p.spec.resource_claims[0].resource_claim_template_name, "one-gpu");
}

TEST(WorkloadPods, DaemonSetRunsOnNodesItFitsPinnedByName) {
  std::string yaml =
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n"
      "  template:\n    spec:\n      nodeSelector: {gpu: \"true\"}\n"
      "      containers: [{name: c, image: i}]\n";
  std::vector<api::Node> nodes(4);
  nodes[0].metadata.name = "a";
  nodes[0].metadata.labels = {{"gpu", "true"}};
  nodes[1].metadata.name = "b";  // no label
  nodes[2].metadata.name = "c";
  nodes[2].metadata.labels = {{"gpu", "true"}};
  nodes[2].spec.taints.push_back({"nvidia.com/gpu", "", "NoSchedule", {}});
  nodes[3].metadata.name = "d";
  nodes[3].metadata.labels = {{"gpu", "true"}};
  nodes[3].spec.unschedulable = true;
  nodes[3].spec.taints.push_back({"node.kubernetes.io/unschedulable", "", "NoSchedule", {}});
  Result<std::vector<api::Pod>> pods = PodsOfWorkloads(Unmodeled(yaml), nodes, "default");
  ASSERT_TRUE(pods.ok()) << pods.error();
  EXPECT_EQ(Names(*pods), (std::vector<std::string>{"default/agent-a", "default/agent-d"}));
  const auto& affinity =
      (*pods)[0].spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution;
  ASSERT_TRUE(affinity);
  ASSERT_EQ(affinity->node_selector_terms.size(), 1u);
  ASSERT_EQ(affinity->node_selector_terms[0].match_fields.size(), 1u);
  EXPECT_EQ(affinity->node_selector_terms[0].match_fields[0].key, "metadata.name");
  EXPECT_EQ(affinity->node_selector_terms[0].match_fields[0].values, (api::List<std::string>{"a"}));
}

TEST(WorkloadPods, BadWorkloadsAreErrorsNamingTheDocument) {
  Result<std::vector<api::Pod>> pods = PodsOfWorkloads(
      Unmodeled("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n"), {},
      "default");
  ASSERT_FALSE(pods.ok());
  EXPECT_EQ(pods.error(), "in: document 1: Deployment \"web\": spec.template is missing");
  pods = PodsOfWorkloads(Unmodeled("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: "
                                   "web}\nspec:\n  replicas: -1" +
                                   std::string(kTemplate)),
                         {}, "default");
  ASSERT_FALSE(pods.ok());
  EXPECT_EQ(pods.error(),
            "in: document 1: Deployment \"web\": spec.replicas is not a non-negative integer");
}

}  // namespace
}  // namespace dra::scheduler
