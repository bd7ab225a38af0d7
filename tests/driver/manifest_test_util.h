// API objects for driver tests, written as YAML manifests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "dra/api/manifest.h"

namespace dra::driver::testing {

// Decodes every document of `yaml`; a read or decode error fails the test.
inline std::vector<api::Object> ParseObjects(const std::string& yaml) {
  api::ManifestSet set;
  api::ParseManifestText("test.yaml", yaml, api::ManifestOptions{}, set);
  for (const auto& e : set.read_errors) ADD_FAILURE() << e.message;
  std::vector<api::Object> out;
  for (const auto& d : set.documents) {
    for (const auto& e : d.decoded.errors) ADD_FAILURE() << e.message;
    for (const auto& o : d.decoded.objects) out.push_back(o.object);
  }
  return out;
}

// The objects of kind T, in input order.
template <class T>
std::vector<T> ObjectsOf(const std::vector<api::Object>& objects) {
  std::vector<T> out;
  for (const auto& o : objects) {
    if (const T* t = std::get_if<T>(&o)) out.push_back(*t);
  }
  return out;
}

}  // namespace dra::driver::testing
