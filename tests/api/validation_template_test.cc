// ResourceClaimTemplate validation: the claim spec at
// spec.spec and the metadata of generated claims at spec.metadata.
#include <gtest/gtest.h>

#include <string>

#include "dra/api/validation.h"
#include "validation_test_support.h"

namespace dra::api {
namespace {

using testing::ExactRequest;
using testing::kLabelKeyNameMsg;
using testing::kLabelMsg;
using testing::kLabelValueMsg;
using testing::Strings;
using testing::Texts;

ResourceClaimTemplate ValidTemplate() {
  ResourceClaimTemplate tmpl;
  tmpl.metadata.name = "t1";
  tmpl.metadata.namespace_ = "ns1";
  tmpl.spec.metadata.labels["app"] = "demo";
  tmpl.spec.metadata.annotations["Example.com/Note"] = "anything goes";
  tmpl.spec.spec.devices.requests.push_back(ExactRequest("gpu"));
  return tmpl;
}

TEST(ResourceClaimTemplateValidationTest, ValidTemplateHasNoErrors) {
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(ValidTemplate(), {})), Strings{});
}

TEST(ResourceClaimTemplateValidationTest, ClaimSpecPathsAreUnderSpecSpec) {
  ResourceClaimTemplate tmpl = ValidTemplate();
  tmpl.spec.spec.devices.requests[0].name = "GPU";
  tmpl.spec.spec.devices.requests[0].exactly->allocation_mode = "Some";
  const std::string mode_error =
      R"(.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount")";
  const std::string name_error =
      R"(spec.spec.devices.requests[0].name: Invalid value: "GPU": )" + kLabelMsg;
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})),
            (Strings{name_error, "spec.spec.devices.requests[0].exactly" + mode_error}));
  ValidationOptions beta1;
  beta1.request_version = "v1beta1";
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, beta1)),
            (Strings{name_error, "spec.spec.devices.requests[0]" + mode_error}));
}

TEST(ResourceClaimTemplateValidationTest, OnlyLabelsAndAnnotationsMayBeSet) {
  ResourceClaimTemplate tmpl = ValidTemplate();
  ObjectMeta& meta = tmpl.spec.metadata;
  meta.name = "n";
  meta.generate_name = "g-";
  meta.namespace_ = "ns";
  meta.uid = "u";
  meta.resource_version = "1";
  meta.generation = 2;
  meta.creation_timestamp = Time::FromUnix(1);
  meta.deletion_grace_period_seconds = 0;
  meta.finalizers.set_present();  // an empty but present list counts as set
  const std::string p = "spec.metadata.";
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})),
            (Strings{
                p + "name: Forbidden: cannot be set",
                p + "generateName: Forbidden: cannot be set",
                p + "namespace: Forbidden: cannot be set",
                p + "uID: Forbidden: cannot be set",
                p + "resourceVersion: Forbidden: cannot be set",
                p + "generation: Forbidden: cannot be set",
                p + "creationTimestamp: Forbidden: cannot be set",
                p + "deletionGracePeriodSeconds: Forbidden: cannot be set",
                p + "finalizers: Forbidden: cannot be set",
            }));
}

TEST(ResourceClaimTemplateValidationTest, AnnotationsThenLabelsThenOtherFields) {
  ResourceClaimTemplate tmpl = ValidTemplate();
  ObjectMeta& meta = tmpl.spec.metadata;
  meta.labels["bad key"] = "bad value";
  meta.annotations["Bad Key"] = "v";
  meta.owner_references.emplace_back();
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})),
            (Strings{
                R"(spec.metadata.annotations: Invalid value: "Bad Key": )" + kLabelKeyNameMsg,
                R"(spec.metadata.labels: Invalid value: "bad key": )" + kLabelKeyNameMsg,
                R"(spec.metadata.labels: Invalid value: "bad value": )" + kLabelValueMsg,
                "spec.metadata.ownerReferences: Forbidden: cannot be set",
            }));
}

TEST(ResourceClaimTemplateValidationTest, AnnotationsSizeLimit) {
  ResourceClaimTemplate tmpl = ValidTemplate();
  tmpl.spec.metadata.annotations.clear();
  tmpl.spec.metadata.annotations["a"] = std::string(256 * 1024 - 1, 'x');
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})), Strings{});
  tmpl.spec.metadata.annotations["b"] = "";
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})),
            Strings{"spec.metadata.annotations: Too long: may not be more than 262144 bytes"});
}

TEST(ResourceClaimTemplateValidationTest, AdminAccessPathIsTheClaimOne) {
  ResourceClaimTemplate tmpl = ValidTemplate();
  tmpl.spec.spec.devices.requests[0].exactly->admin_access = true;
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})),
            Strings{"spec.devices.requests[0].adminAccess: Forbidden: admin access to devices "
                    "requires the `resource.kubernetes.io/admin-access: true` label on the "
                    "containing namespace"});
}

TEST(ResourceClaimTemplateValidationTest, ObjectMetaIsNamespaced) {
  ResourceClaimTemplate tmpl = ValidTemplate();
  tmpl.metadata.namespace_.clear();
  tmpl.spec.spec.devices.requests[0].exactly->device_class_name.clear();
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(tmpl, {})),
            (Strings{"metadata.namespace: Required value",
                     "spec.spec.devices.requests[0].exactly.deviceClassName: Required value"}));
}

}  // namespace
}  // namespace dra::api
