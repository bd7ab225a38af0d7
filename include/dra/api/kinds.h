// Which kinds dra decodes into its own types, and which kinds a
// kube-apiserver serves without any CustomResourceDefinition. Together they
// say what to do with a document of any kind: decode it, pass it through as
// written (a kind the server serves but dra does not model: Deployment,
// ConfigMap, ClusterRole...), or reject it as kubectl does ("no matches for
// kind").
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace dra::api {

// True when DecodeDocument turns a document of this apiVersion and kind into
// an Object (the resource.k8s.io kinds in the versions that serve them, and
// core/v1 Node, Pod and Namespace).
bool IsDecodedKind(std::string_view api_version, std::string_view kind);

// One kind of the server's discovery documents (/api/v1 and
// /apis/<group>/<version>), without subresources.
struct ServedKind {
  std::string_view api_version;  // "v1", "apps/v1", ...
  std::string_view kind;         // "Deployment"
  std::string_view resource;     // "deployments", as `kubectl create` prints it
  bool namespaced = false;
};

// The kinds kube-apiserver v1.37.2 serves with its default --runtime-config,
// outside resource.k8s.io (whose versions dra models itself), sorted by
// apiVersion and kind. Taken from the discovery documents of the real server;
// the cluster test served_kinds_test.cc checks the table against them.
std::span<const ServedKind> BuiltinServedKinds();

// The entry of BuiltinServedKinds() for this apiVersion and kind, or null.
// The pointer stays valid for the life of the program.
const ServedKind* FindServedKind(std::string_view api_version, std::string_view kind);

// The warning kube-apiserver v1.37.2 adds to every request for a deprecated
// resource.k8s.io version of a kind (k8s.io/apiserver's deprecation
// package, with the lifecycle that k8s.io/api v0.37.2 generates for each
// type), e.g. "resource.k8s.io/v1beta1 ResourceClaim is deprecated in
// v1.35+, unavailable in v1.38+"; empty when it adds none.
std::string DeprecationWarning(std::string_view api_version, std::string_view kind);

}  // namespace dra::api
