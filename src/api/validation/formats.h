// Shared string-format and sub-object validators. Each appends the errors a
// client would see to `errors`; the "util" family
// (k8s.io/apimachinery/pkg/util/validation) says "characters", the "content"
// family (k8s.io/apimachinery/pkg/api/validate/content) says "bytes".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/field_error.h"
#include "dra/api/list.h"
#include "dra/api/meta.h"
#include "dra/api/resource.h"

namespace dra::api::validation {

// Field path building: Child("spec", "devices") == "spec.devices",
// Index("spec.devices", 3) == "spec.devices[3]", Key("x.attributes", "k") ==
// "x.attributes[k]" (keys over 96 bytes are shortened as upstream does).
std::string Child(std::string_view path, std::string_view name);
std::string Index(std::string_view path, std::size_t i);
std::string Key(std::string_view path, std::string_view key);
// Key with the hand-written validators' shortening for other key limits
// (keys over `max_len` bytes, at least 16, keep their head and tail around
// "..."), and without any shortening (declarative paths).
std::string TruncatedKey(std::string_view path, std::string_view key, std::size_t max_len);
std::string ExactKey(std::string_view path, std::string_view key);

// Declarative union errors (Union in k8s.io/apimachinery/pkg/api/validate):
// `members` are the JSON names of all members in declaration order, `set`
// those that are set.
FieldError UnionNoneSet(std::string field, const std::vector<std::string_view>& members);
FieldError UnionSeveralSet(std::string field, const std::vector<std::string_view>& set,
                           const std::vector<std::string_view>& members);

// DNS-1123 label (<= 63). Util texts ("characters"), or content texts
// ("bytes") when `content` is true.
void ValidateDnsLabel(std::string_view value, const std::string& field, FieldErrors& errors,
                      bool content = false);
// DNS-1123 subdomain (<= 253).
void ValidateDnsSubdomain(std::string_view value, const std::string& field, FieldErrors& errors,
                          bool content = false);
// Case-insensitive subdomain (DV format=k8s-long-name-caseless, M-SUB-CI).
void ValidateCaselessSubdomain(std::string_view value, const std::string& field,
                               FieldErrors& errors);
void ValidateLabelKey(std::string_view value, const std::string& field, FieldErrors& errors);
void ValidateLabelValue(std::string_view value, const std::string& field, FieldErrors& errors);
void ValidateCIdentifier(std::string_view value, const std::string& field, FieldErrors& errors);

// HV driver name (slices, taint-rule selectors, status.devices).
void ValidateDriverName(std::string_view value, const std::string& field, FieldErrors& errors);
// DV driver name (opaque.driver, results[].driver): required, caseless
// subdomain, maxLength 63 characters.
void ValidateDriverNameDeclarative(std::string_view value, const std::string& field,
                                   FieldErrors& errors);
// HV pool name; DV pool name (allocation results): required, then the
// resource-pool-name format.
void ValidatePoolName(std::string_view value, const std::string& field, FieldErrors& errors);
void ValidatePoolNameDeclarative(std::string_view value, const std::string& field,
                                 FieldErrors& errors);
// Qualified name (attribute/capacity keys), errors at the map's path.
void ValidateQualifiedName(std::string_view value, const std::string& field, FieldErrors& errors);
// Fully qualified name: HV (distinctAttribute) and DV (matchAttribute,
// partitionTypeAttribute) variants.
void ValidateFullyQualifiedName(std::string_view value, const std::string& field,
                                FieldErrors& errors);
void ValidateFullyQualifiedNameDeclarative(std::string_view value, const std::string& field,
                                           FieldErrors& errors);
void ValidateUuid(std::string_view value, const std::string& field, FieldErrors& errors);
void ValidateExtendedResourceName(std::string_view value, const std::string& field,
                                  FieldErrors& errors);

// Device taints of slices and DeviceTaintRules (validateDeviceTaint in
// k8s.io/kubernetes/pkg/apis/resource/validation): the hand-written key and
// value checks, and the declarative effect check (required, then one of None,
// NoSchedule, NoExecute) at `field`.
void ValidateDeviceTaintKeyAndValue(const DeviceTaint& taint, const std::string& path,
                                    FieldErrors& errors);
void ValidateDeviceTaintEffect(std::string_view effect, const std::string& field,
                               FieldErrors& errors);

// Sub-objects.
void ValidateNodeSelector(const NodeSelector& selector, const std::string& field,
                          FieldErrors& errors);
// Raw extension: `max_bytes` < 0 waives the size limit (unchanged values).
void ValidateRawExtension(const RawExtension& raw, const std::string& field, long max_bytes,
                          FieldErrors& errors);
void ValidateConditions(const List<Condition>& conditions, const std::string& field,
                        FieldErrors& errors);
// ObjectMeta of a new object. `namespaced` requires metadata.namespace;
// `content_name` uses the content ("bytes") subdomain texts and, as upstream's
// WithOpts variant, leaves generateName alone (DeviceClass).
void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, bool content_name,
                        FieldErrors& errors);
// ObjectMeta update rules. An empty resourceVersion is not reported: the
// store fills it in (or refuses the update) before validation.
void ValidateObjectMetaUpdate(const ObjectMeta& meta, const ObjectMeta& old, FieldErrors& errors);

}  // namespace dra::api::validation
