// The claim-related parts of Pod validation: spec.resourceClaims, the
// containers' resources.claims and status.resourceClaimStatuses.
#include <gtest/gtest.h>

#include <string>

#include "dra/api/validation.h"
#include "validation_test_support.h"

namespace dra::api {
namespace {

using testing::kLabelMsg;
using testing::kSubdomainMsg;
using testing::Strings;
using testing::Texts;

PodResourceClaim FromClaim(std::string name, std::string claim) {
  PodResourceClaim c;
  c.name = std::move(name);
  c.resource_claim_name = std::move(claim);
  return c;
}

PodResourceClaim FromTemplate(std::string name, std::string tmpl) {
  PodResourceClaim c;
  c.name = std::move(name);
  c.resource_claim_template_name = std::move(tmpl);
  return c;
}

Container WithClaims(std::vector<ContainerResourceClaim> claims) {
  Container container;
  container.name = "c";
  for (auto& claim : claims) container.resources.claims.push_back(std::move(claim));
  return container;
}

Pod ValidPod() {
  Pod pod;
  pod.metadata.name = "p";
  pod.metadata.namespace_ = "ns1";
  pod.spec.resource_claims.push_back(FromClaim("gpu", "shared-gpu"));
  pod.spec.resource_claims.push_back(FromTemplate("nic", "nic-template"));
  pod.spec.containers.push_back(WithClaims({{"gpu", ""}, {"nic", "fast"}, {"nic", "slow"}}));
  return pod;
}

TEST(PodClaimsValidationTest, ValidPodHasNoErrors) {
  EXPECT_EQ(Texts(ValidatePodClaims(ValidPod(), {})), Strings{});
}

TEST(PodClaimsValidationTest, PodClaimNames) {
  Pod pod = ValidPod();
  pod.spec.resource_claims.push_back(FromClaim("", "x"));
  pod.spec.resource_claims.push_back(FromClaim("gpu", "x"));
  pod.spec.resource_claims.push_back(FromClaim("GPU", "x"));
  EXPECT_EQ(Texts(ValidatePodClaims(pod, {})),
            (Strings{
                "spec.resourceClaims[2].name: Required value",
                R"(spec.resourceClaims[3].name: Duplicate value: "gpu")",
                R"(spec.resourceClaims[4].name: Invalid value: "GPU": )" + kLabelMsg,
            }));
}

TEST(PodClaimsValidationTest, ExactlyOneReference) {
  Pod pod = ValidPod();
  PodResourceClaim both = FromClaim("both", "claim");
  both.resource_claim_template_name = "Bad_Template";
  PodResourceClaim neither;
  neither.name = "neither";
  pod.spec.resource_claims.push_back(both);
  pod.spec.resource_claims.push_back(neither);
  EXPECT_EQ(
      Texts(ValidatePodClaims(pod, {})),
      (Strings{
          R"(spec.resourceClaims[2]: Invalid value: {"Name":"both","ResourceClaimName":"claim","ResourceClaimTemplateName":"Bad_Template"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified)",
          R"(spec.resourceClaims[2].resourceClaimTemplateName: Invalid value: "Bad_Template": )" +
              kSubdomainMsg,
          R"(spec.resourceClaims[3]: Invalid value: {"Name":"neither","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`)",
      }));
}

TEST(PodClaimsValidationTest, ClaimNameFormat) {
  Pod pod = ValidPod();
  pod.spec.resource_claims[0].resource_claim_name = std::string(254, 'a');
  EXPECT_EQ(Texts(ValidatePodClaims(pod, {})),
            Strings{"spec.resourceClaims[0].resourceClaimName: Invalid value: \"" +
                    std::string(254, 'a') + "\": must be no more than 253 characters"});
}

TEST(PodClaimsValidationTest, ContainerClaims) {
  Pod pod = ValidPod();
  pod.spec.containers.push_back(
      WithClaims({{"", ""}, {"gpu", ""}, {"gpu", ""}, {"nic", "Fast"}, {"tpu", ""}}));
  const std::string c = "spec.containers[1].resources.claims";
  EXPECT_EQ(
      Texts(ValidatePodClaims(pod, {})),
      (Strings{
          c + "[0]: Required value",
          c + R"([2]: Duplicate value: "gpu")",
          c + R"([3].request: Invalid value: "Fast": )" + kLabelMsg,
          c + R"([4]: Not found: "tpu": must be one of the names in pod.spec.resourceClaims: gpu, nic)",
      }));
}

TEST(PodClaimsValidationTest, UnknownClaimWithoutPodClaims) {
  Pod pod = ValidPod();
  pod.spec.resource_claims.clear();
  pod.spec.containers.clear();
  pod.spec.init_containers.push_back(WithClaims({{"gpu", "a"}, {"gpu", "a"}}));
  const std::string c = "spec.initContainers[0].resources.claims";
  const std::string not_found =
      R"(: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty)";
  EXPECT_EQ(Texts(ValidatePodClaims(pod, {})),
            (Strings{c + "[0]" + not_found, c + R"([1]: Duplicate value: "gpu/a")",
                     c + "[1]" + not_found}));
}

TEST(PodClaimsValidationTest, ContainersBeforeInitContainers) {
  Pod pod = ValidPod();
  pod.spec.init_containers.push_back(WithClaims({{"", ""}}));
  pod.spec.containers.push_back(WithClaims({{"", ""}}));
  EXPECT_EQ(Texts(ValidatePodClaims(pod, {})),
            (Strings{"spec.containers[1].resources.claims[0]: Required value",
                     "spec.initContainers[0].resources.claims[0]: Required value"}));
}

TEST(PodClaimsValidationTest, ClaimStatuses) {
  Pod pod = ValidPod();
  auto& statuses = pod.status.resource_claim_statuses;
  statuses.push_back({"nic", std::string("p-nic-x7k2b")});
  statuses.push_back({"gpu", std::nullopt});
  statuses.push_back({"other", std::nullopt});
  statuses.push_back({"nic", std::string("Bad<name>")});
  const std::string s = "status.resourceClaimStatuses";
  EXPECT_EQ(
      Texts(ValidatePodClaims(pod, {})),
      (Strings{
          s + R"([2].name: Invalid value: "other": must match the name of an entry in `spec.resourceClaims`)",
          s + R"([3].name: Duplicate value: "nic")",
          s + R"([3].name: Invalid value: "Bad\u003cname\u003e": )" + kSubdomainMsg,
      }));
}

}  // namespace
}  // namespace dra::api
