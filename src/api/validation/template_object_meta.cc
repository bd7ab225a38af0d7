#include "api/validation/template_object_meta.h"

#include <cctype>
#include <cstdint>

#include "api/validation/formats.h"

namespace dra::api::validation {
namespace {

constexpr std::int64_t kTotalAnnotationSizeLimit = 256 * 1024;

void ValidateAnnotations(const StringMap& annotations, const std::string& field,
                         FieldErrors& errors) {
  std::int64_t total_size = 0;
  for (const auto& [key, value] : annotations) {
    // Annotation keys are label keys in any letter case; errors show the
    // key as written.
    std::string lowered = key;
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    FieldErrors key_errors;
    ValidateLabelKey(lowered, field, key_errors);
    for (FieldError& e : key_errors) {
      e.value = GoQuote(key);
      errors.push_back(std::move(e));
    }
    total_size += static_cast<std::int64_t>(key.size() + value.size());
  }
  if (total_size > kTotalAnnotationSizeLimit) {
    errors.push_back(TooLong(field, kTotalAnnotationSizeLimit));
  }
}

void ValidateLabels(const StringMap& labels, const std::string& field, FieldErrors& errors) {
  for (const auto& [key, value] : labels) {
    ValidateLabelKey(key, field, errors);
    ValidateLabelValue(value, field, errors);
  }
}

}  // namespace

void ValidateTemplateObjectMeta(const ObjectMeta& meta, const std::string& field,
                                FieldErrors& errors) {
  ValidateAnnotations(meta.annotations, Child(field, "annotations"), errors);
  ValidateLabels(meta.labels, Child(field, "labels"), errors);
  // In ObjectMeta's Go field order.
  const std::pair<std::string_view, bool> other_fields[] = {
      {"name", !meta.name.empty()},
      {"generateName", !meta.generate_name.empty()},
      {"namespace", !meta.namespace_.empty()},
      {"selfLink", !meta.self_link.empty()},
      {"uID", !meta.uid.empty()},
      {"resourceVersion", !meta.resource_version.empty()},
      {"generation", meta.generation != 0},
      {"creationTimestamp", meta.creation_timestamp.set},
      {"deletionTimestamp", meta.deletion_timestamp.set},
      {"deletionGracePeriodSeconds", meta.deletion_grace_period_seconds.has_value()},
      {"ownerReferences", !meta.owner_references.nil()},
      {"finalizers", !meta.finalizers.nil()},
      {"managedFields", !meta.managed_fields.nil()},
  };
  for (const auto& [name, set] : other_fields) {
    if (set) errors.push_back(Forbidden(Child(field, name), "cannot be set"));
  }
}

}  // namespace dra::api::validation
