#include "allocator/report.h"

#include "dra/api/codec.h"
#include "dra/json/build.h"

namespace dra::allocator {
namespace {

using json::Put;
using json::Str;

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kAllocated:
      return "Allocated";
    case Outcome::kUnschedulable:
      return "Unschedulable";
    case Outcome::kError:
      return "Error";
  }
  return "Error";
}

std::string Requirements(const api::List<api::NodeSelectorRequirement>& list) {
  std::string out;
  for (const auto& r : list) {
    if (!out.empty()) out += ", ";
    out += r.key + " " + r.operator_;
    if (!r.values.empty()) {
      out += " [";
      for (std::size_t i = 0; i < r.values.size(); ++i) out += (i ? "," : "") + r.values[i];
      out += "]";
    }
  }
  return out;
}

}  // namespace

Result<json::Value> AllocationResultJson(const api::AllocationResult& allocation) {
  api::ResourceClaim carrier;
  carrier.metadata.name = "carrier";
  carrier.status.allocation = allocation;
  Result<std::string> encoded = api::EncodeObject(api::Object(carrier), api::ApiVersion::kV1);
  if (!encoded.ok()) return encoded.failure();
  Result<json::Value> tree = json::ParseJson(*encoded);
  if (!tree.ok()) return tree.failure();
  const json::Value* status = tree->Find("status");
  const json::Value* result = status != nullptr ? status->Find("allocation") : nullptr;
  if (result == nullptr) return Error{"encoded claim has no status.allocation"};
  return *result;
}

Result<json::Value> ReportJson(const std::string& node, std::span<const api::ResourceClaim> claims,
                               const AllocateResult& result) {
  json::Value out = json::Value::Object();
  Put(out, "node", Str(node));
  Put(out, "outcome", Str(OutcomeName(result.outcome)));
  Put(out, "steps", json::Value::Number(std::to_string(result.steps)));
  json::Value list = json::Value::Array();
  for (std::size_t i = 0; i < claims.size(); ++i) {
    json::Value c = json::Value::Object();
    Put(c, "namespace", Str(claims[i].metadata.namespace_));
    Put(c, "name", Str(claims[i].metadata.name));
    if (result.outcome == Outcome::kAllocated) {
      Result<json::Value> a = AllocationResultJson(result.allocations[i]);
      if (!a.ok()) return a.failure();
      Put(c, "allocation", std::move(*a));
    }
    list.items.push_back(std::move(c));
  }
  Put(out, "claims", std::move(list));
  if (result.outcome == Outcome::kError) {
    Put(out, "error", Str(result.error));
    Put(out, "nodeLocal", json::Value::Bool(result.node_local_error));
  }
  if (result.outcome == Outcome::kUnschedulable && !result.explanation.entries.empty()) {
    Put(out, "explanation", ExplanationValue(result.explanation));
  }
  return out;
}

std::string ReportText(const std::string& node, std::span<const api::ResourceClaim> claims,
                       const AllocateResult& result) {
  std::string out = "node " + node + ": ";
  switch (result.outcome) {
    case Outcome::kError:
      return out + "error: " + result.error + "\n";
    case Outcome::kUnschedulable:
      out += "unschedulable: cannot allocate all claims (" + std::to_string(result.steps) +
             " search steps)\n";
      if (!result.explanation.entries.empty()) out += ExplanationText(result.explanation);
      return out;
    case Outcome::kAllocated:
      break;
  }
  out += "allocated (" + std::to_string(result.steps) + " search steps)\n";
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const api::ResourceClaim& c = claims[i];
    const api::AllocationResult& a = result.allocations[i];
    out += (c.metadata.namespace_.empty() ? "" : c.metadata.namespace_ + "/") + c.metadata.name +
           ":\n";
    for (const auto& r : a.devices.results) {
      out += "  " + r.request + ": " + r.driver + "/" + r.pool + "/" + r.device;
      if (r.admin_access.value_or(false)) out += " (admin access)";
      out += "\n";
    }
    for (const auto& cfg : a.devices.config) {
      out += "  config " + cfg.source + (cfg.config.opaque ? " " + cfg.config.opaque->driver : "");
      if (!cfg.requests.nil()) out += " for " + std::to_string(cfg.requests.size()) + " request(s)";
      out += "\n";
    }
    if (a.node_selector) {
      for (const auto& term : a.node_selector->node_selector_terms) {
        out += "  nodeSelector:";
        if (!term.match_expressions.empty()) out += " " + Requirements(term.match_expressions);
        if (!term.match_fields.empty()) out += " fields " + Requirements(term.match_fields);
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace dra::allocator
