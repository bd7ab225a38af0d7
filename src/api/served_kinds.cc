// The kinds of kube-apiserver v1.37.2's discovery documents with its default
// --runtime-config, resource.k8s.io aside (tests/cluster/served_kinds_test.cc
// compares this table with a running server's /api/v1 and /apis/<gv>).
#include <algorithm>
#include <iterator>

#include "dra/api/kinds.h"

namespace dra::api {
namespace {

// Sorted by apiVersion, then kind.
constexpr ServedKind kServed[] = {
    {"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy", "mutatingadmissionpolicies",
     false},
    {"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicyBinding",
     "mutatingadmissionpolicybindings", false},
    {"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration",
     "mutatingwebhookconfigurations", false},
    {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "validatingadmissionpolicies",
     false},
    {"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding",
     "validatingadmissionpolicybindings", false},
    {"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration",
     "validatingwebhookconfigurations", false},
    {"apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions", false},
    {"apiregistration.k8s.io/v1", "APIService", "apiservices", false},
    {"apps/v1", "ControllerRevision", "controllerrevisions", true},
    {"apps/v1", "DaemonSet", "daemonsets", true},
    {"apps/v1", "Deployment", "deployments", true},
    {"apps/v1", "ReplicaSet", "replicasets", true},
    {"apps/v1", "StatefulSet", "statefulsets", true},
    {"authentication.k8s.io/v1", "SelfSubjectReview", "selfsubjectreviews", false},
    {"authentication.k8s.io/v1", "TokenReview", "tokenreviews", false},
    {"authorization.k8s.io/v1", "LocalSubjectAccessReview", "localsubjectaccessreviews", true},
    {"authorization.k8s.io/v1", "SelfSubjectAccessReview", "selfsubjectaccessreviews", false},
    {"authorization.k8s.io/v1", "SelfSubjectRulesReview", "selfsubjectrulesreviews", false},
    {"authorization.k8s.io/v1", "SubjectAccessReview", "subjectaccessreviews", false},
    {"autoscaling/v1", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true},
    {"autoscaling/v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true},
    {"batch/v1", "CronJob", "cronjobs", true},
    {"batch/v1", "Job", "jobs", true},
    {"certificates.k8s.io/v1", "CertificateSigningRequest", "certificatesigningrequests", false},
    {"certificates.k8s.io/v1", "ClusterTrustBundle", "clustertrustbundles", false},
    {"certificates.k8s.io/v1", "PodCertificateRequest", "podcertificaterequests", true},
    {"coordination.k8s.io/v1", "Lease", "leases", true},
    {"discovery.k8s.io/v1", "EndpointSlice", "endpointslices", true},
    {"events.k8s.io/v1", "Event", "events", true},
    {"flowcontrol.apiserver.k8s.io/v1", "FlowSchema", "flowschemas", false},
    {"flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration", "prioritylevelconfigurations",
     false},
    {"networking.k8s.io/v1", "IPAddress", "ipaddresses", false},
    {"networking.k8s.io/v1", "Ingress", "ingresses", true},
    {"networking.k8s.io/v1", "IngressClass", "ingressclasses", false},
    {"networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", true},
    {"networking.k8s.io/v1", "ServiceCIDR", "servicecidrs", false},
    {"node.k8s.io/v1", "RuntimeClass", "runtimeclasses", false},
    {"policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", true},
    {"rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", false},
    {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings", false},
    {"rbac.authorization.k8s.io/v1", "Role", "roles", true},
    {"rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", true},
    {"scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", false},
    {"storage.k8s.io/v1", "CSIDriver", "csidrivers", false},
    {"storage.k8s.io/v1", "CSINode", "csinodes", false},
    {"storage.k8s.io/v1", "CSIStorageCapacity", "csistoragecapacities", true},
    {"storage.k8s.io/v1", "StorageClass", "storageclasses", false},
    {"storage.k8s.io/v1", "VolumeAttachment", "volumeattachments", false},
    {"storage.k8s.io/v1", "VolumeAttributesClass", "volumeattributesclasses", false},
    {"storagemigration.k8s.io/v1", "StorageVersionMigration", "storageversionmigrations", false},
    {"v1", "Binding", "bindings", true},
    {"v1", "ComponentStatus", "componentstatuses", false},
    {"v1", "ConfigMap", "configmaps", true},
    {"v1", "Endpoints", "endpoints", true},
    {"v1", "Event", "events", true},
    {"v1", "LimitRange", "limitranges", true},
    {"v1", "Namespace", "namespaces", false},
    {"v1", "Node", "nodes", false},
    {"v1", "PersistentVolume", "persistentvolumes", false},
    {"v1", "PersistentVolumeClaim", "persistentvolumeclaims", true},
    {"v1", "Pod", "pods", true},
    {"v1", "PodTemplate", "podtemplates", true},
    {"v1", "ReplicationController", "replicationcontrollers", true},
    {"v1", "ResourceQuota", "resourcequotas", true},
    {"v1", "Secret", "secrets", true},
    {"v1", "Service", "services", true},
    {"v1", "ServiceAccount", "serviceaccounts", true},
};

bool Less(const ServedKind& a, std::string_view api_version, std::string_view kind) {
  return a.api_version != api_version ? a.api_version < api_version : a.kind < kind;
}

}  // namespace

std::span<const ServedKind> BuiltinServedKinds() { return kServed; }

const ServedKind* FindServedKind(std::string_view api_version, std::string_view kind) {
  const ServedKind* it =
      std::lower_bound(std::begin(kServed), std::end(kServed), 0,
                       [&](const ServedKind& k, int) { return Less(k, api_version, kind); });
  if (it == std::end(kServed) || it->api_version != api_version || it->kind != kind) {
    return nullptr;
  }
  return it;
}

}  // namespace dra::api
