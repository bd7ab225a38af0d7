// DeviceClass validation (ValidateDeviceClass, ValidateDeviceClassUpdate in
// k8s.io/kubernetes/pkg/apis/resource/validation): hand-written errors, then
// the declarative ones. Declarative rules skip data unchanged by an update;
// the hand-written rules they cover then report with their own texts.
#include <algorithm>
#include <iterator>
#include <string>

#include "api/validation/device_configuration.h"
#include "api/validation/error_lists.h"
#include "api/validation/formats.h"
#include "api/validation/list_checks.h"
#include "api/validation/resource_limits.h"
#include "api/validation/selectors.h"
#include "dra/api/validation.h"

namespace dra::api {
namespace {

using validation::ErrorLists;
using validation::ExceedsMaxItems;
using validation::Index;
using validation::kDeviceConfigMaxSize;
using validation::kDeviceSelectorsMaxSize;
using validation::ValidateDeviceConfiguration;
using validation::ValidateDeviceConfigurationDeclarative;
using validation::ValidateExtendedResourceName;
using validation::ValidateObjectMeta;
using validation::ValidateObjectMetaUpdate;
using validation::ValidateSelectors;

// The name-format errors of a new class. Their declarative twin is beta, so
// the client sees them where the declarative errors start, not among the
// hand-written metadata errors.
FieldErrors TakeNameFormatErrors(FieldErrors& metadata_errors) {
  auto is_name_format = [](const FieldError& e) {
    return e.field == "metadata.name" && e.type != ErrorType::kRequired &&
           e.type != ErrorType::kInternal;
  };
  FieldErrors taken;
  std::copy_if(metadata_errors.begin(), metadata_errors.end(), std::back_inserter(taken),
               is_name_format);
  std::erase_if(metadata_errors, is_name_format);
  return taken;
}

bool IsExtendedResourceName(const std::string& name) {
  FieldErrors errors;
  ValidateExtendedResourceName(name, "", errors);
  return errors.empty();
}

void ValidateSpec(const DeviceClassSpec& spec, const DeviceClassSpec* old,
                  const ValidationOptions& options, ErrorLists& errors) {
  FieldErrors& hv = errors.hv;
  FieldErrors& dv = errors.dv;
  const bool selectors_unchanged = old && spec.selectors == old->selectors;
  const bool config_unchanged = old && spec.config == old->config;
  const bool extended_resource_name_unchanged =
      old && spec.extended_resource_name == old->extended_resource_name;

  const std::string selectors_path = "spec.selectors";
  ExceedsMaxItems(spec.selectors.size(), kDeviceSelectorsMaxSize, selectors_path,
                  selectors_unchanged ? hv : dv);
  ValidateSelectors(spec.selectors, selectors_path, selectors_unchanged, options, hv);

  const std::string config_path = "spec.config";
  if (!ExceedsMaxItems(spec.config.size(), kDeviceConfigMaxSize, config_path,
                       config_unchanged ? hv : dv)) {
    for (std::size_t i = 0; i < spec.config.size(); ++i) {
      ValidateDeviceConfiguration(spec.config[i].config, Index(config_path, i), config_unchanged,
                                  hv);
      if (!config_unchanged) {
        ValidateDeviceConfigurationDeclarative(spec.config[i].config, Index(config_path, i), dv);
      }
    }
  }

  if (spec.extended_resource_name) {
    const std::string path = "spec.extendedResourceName";
    if (!extended_resource_name_unchanged) {
      ValidateExtendedResourceName(*spec.extended_resource_name, path, dv);
    } else if (!IsExtendedResourceName(*spec.extended_resource_name)) {
      hv.push_back(InvalidString(path, *spec.extended_resource_name,
                                 "must be a valid extended resource name"));
    }
  }
}

}  // namespace

FieldErrors ValidateDeviceClass(const DeviceClass& cls, const ValidationOptions& options) {
  ErrorLists errors;
  ValidateObjectMeta(cls.metadata, /*namespaced=*/false, /*content_name=*/true, errors.hv);
  errors.dv = TakeNameFormatErrors(errors.hv);
  ValidateSpec(cls.spec, nullptr, options, errors);
  return std::move(errors).Merged();
}

FieldErrors ValidateDeviceClassUpdate(const DeviceClass& cls, const DeviceClass& old,
                                      const ValidationOptions& options) {
  // The name cannot change, so its declarative check never runs on update.
  ErrorLists errors;
  ValidateObjectMeta(cls.metadata, /*namespaced=*/false, /*content_name=*/true, errors.hv);
  ValidateObjectMetaUpdate(cls.metadata, old.metadata, errors.hv);
  ValidateSpec(cls.spec, &old.spec, options, errors);
  return std::move(errors).Merged();
}

}  // namespace dra::api
