#include "cli/simulate_html.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string_view>
#include <vector>

#include "cli/serve/assets.h"
#include "dra/allocator/explanation.h"

namespace dra::cli {
namespace {

using scheduler::DeviceUse;
using scheduler::NodeUtilization;
using scheduler::PartitionUse;
using scheduler::PodCounts;
using scheduler::PodRecord;
using scheduler::PodState;
using scheduler::QuantityUse;
using scheduler::Scheduler;
using scheduler::SimulationReport;
using scheduler::Utilization;

// Up to this many nodes get a card each; more, one square each in a heat map,
// as on the dashboard.
constexpr std::size_t kNodeCards = 48;

// What only this page needs on top of the dashboard's stylesheet: nothing on
// it is clickable, and a pod's explanation is the row under the pod's, in a
// table whose columns keep their widths (an explanation wider than the page
// scrolls on its own; the reason still wraps in its column).
constexpr std::string_view kPageStyle =
    "\n/* dra simulate -o html */\n"
    ".node, .heat button { cursor: default; }\n"
    "tr.explained > td { border-bottom: 0; }\n"
    "table.pending { table-layout: fixed; }\n"
    "table.pending col.pod { width: 30ch; }\n"
    "table.pending col.stage { width: 18ch; }\n"
    "table.pending > tbody > tr > td { overflow-wrap: anywhere; }\n"
    ".explain { overflow-x: auto; }\n"
    ".explain td:first-child { white-space: nowrap; }\n"
    "td.nowrap { white-space: nowrap; }\n"
    ".parent > .use { margin-bottom: 6px; }\n";

// Text from the input, for element content and double-quoted attributes.
std::string Html(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

// 1234567 -> "1,234,567", as the dashboard's Intl.NumberFormat('en').
std::string Count(std::int64_t n) {
  std::string digits = std::to_string(n);
  std::size_t first = n < 0 ? 1 : 0;
  std::string out = digits.substr(0, first);
  for (std::size_t i = first; i < digits.size(); ++i) {
    if (i > first && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Count(std::size_t n) { return Count(static_cast<std::int64_t>(n)); }

// "1 partition", "2 partitions".
std::string Plural(std::size_t n, const std::string& noun) {
  return Count(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string Joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

// " (42%)", rounded as the text report rounds; nothing when there is no whole.
std::string PercentOf(double part, double whole) {
  if (whole <= 0) return "";
  return " (" + Fixed(100.0 * part / whole, 0) + "%)";
}

// "12 of 16 in use (75%)", as the dashboard's tallyText.
std::string Tally(std::int64_t part, std::int64_t whole, const std::string& what) {
  return Count(part) + " of " + Count(whole) + " " + what +
         PercentOf(static_cast<double>(part), static_cast<double>(whole));
}

struct Segment {
  std::string_view css;  // s-allocated, s-tainted, s-free; empty: the bar's track shows
  double value;
};

// The dashboard's stacked bar (.stack): a span per segment, as wide as its
// share of the whole, with the figures as its tooltip.
std::string Stack(const std::vector<Segment>& segments, const std::string& tip) {
  double whole = 0;
  for (const Segment& s : segments) whole += std::max(0.0, s.value);
  std::string out = "<div class=\"stack\" role=\"img\" title=\"" + Html(tip) + "\" aria-label=\"" +
                    Html(tip) + "\">";
  for (const Segment& s : segments) {
    if (whole <= 0 || s.value <= 0 || s.css.empty()) continue;
    out += "<span class=\"" + std::string(s.css) +
           "\" style=\"width:" + Fixed(100 * s.value / whole, 2) + "%\"></span>";
  }
  return out + "</div>";
}

// Whole devices in use, and free.
std::string DeviceStack(std::int64_t used, std::int64_t total, const std::string& tip) {
  return Stack({{"s-allocated", static_cast<double>(used)},
                {"s-free", static_cast<double>(std::max<std::int64_t>(0, total - used))}},
               tip);
}

// Pods scheduled, and Pending.
std::string PodStack(std::int64_t scheduled, std::int64_t pending, const std::string& tip) {
  return Stack({{"s-allocated", static_cast<double>(scheduled)},
                {"s-tainted", static_cast<double>(pending)}},
               tip);
}

std::string LegendItem(std::string_view css, const std::string& text) {
  return "<span><span class=\"dot " + std::string(css) + "\"></span>" + Html(text) + "</span>";
}

std::string Legend(const std::vector<std::string>& items) {
  std::string out = "<div class=\"legend\">";
  for (const std::string& item : items) out += item;
  return out + "</div>";
}

// The dashboard's .use rows: name | bar | "consumed / total (share)", the
// quantities in Kubernetes' canonical form.
std::string UseRows(const std::vector<QuantityUse>& uses) {
  std::string out = "<div class=\"use\">";
  for (const QuantityUse& u : uses) {
    double consumed = u.consumed.AsApproximateDouble();
    double total = u.total.AsApproximateDouble();
    std::string figure = u.consumed.CanonicalString() + " / " + u.total.CanonicalString() +
                         PercentOf(consumed, total);
    out += "<span>" + Html(u.name) + "</span>" +
           Stack({{"s-allocated", consumed}, {"", std::max(0.0, total - consumed)}},
                 u.name + ": " + figure) +
           "<span class=\"figure\">" + Html(figure) + "</span>";
  }
  return out + "</div>";
}

// label | bar | figure, in a .rows grid.
std::string Row(const std::string& label, const std::string& bar, const std::string& figure) {
  return "<span class=\"label\">" + Html(label) + "</span>" + bar + "<span class=\"figure\">" +
         Html(figure) + "</span>";
}

std::string_view DashboardStylesheet() {
  for (const serve::Asset& asset : serve::DashboardAssets()) {
    if (asset.path == "/app.css") return asset.body;
  }
  return {};
}

std::string Head() {
  std::string out =
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>dra simulate</title>\n<style>\n";
  out += DashboardStylesheet();
  out += kPageStyle;
  return out + "</style>\n</head>\n<body>\n";
}

std::string TopBar(const SimulationReport& report, const PodCounts& c) {
  return "<header class=\"bar\"><span class=\"brand\">dra</span>"
         "<span class=\"origin\">scheduling simulation</span><span class=\"muted\">" +
         Plural(static_cast<std::size_t>(c.scheduled + c.pending), "pod") + " on " +
         Plural(report.scheduler->nodes().size(), "node") + "; input read in " +
         Fixed(report.load_seconds * 1000, 1) + " ms</span></header>\n";
}

// The allocator stage a Pending pod is blocked at, as the dashboard names it:
// the first blocking request's stage; "claim" when it waits for a claim,
// "other" when what keeps it is not DRA.
std::string PendingStage(const PodRecord& p) {
  if (p.explanation) {
    for (const allocator::EntryExplanation& e : p.explanation->entries) {
      if (e.blocks) return allocator::StageName(e.blocking);
    }
    return "count";
  }
  if (p.reason.find("esourceClaim") != std::string::npos ||
      p.reason.find("esourceclaim") != std::string::npos) {
    return "claim";
  }
  return "other";
}

bool IsPending(const PodRecord& p) { return !p.deleted && p.state == PodState::kPending; }

std::string Card(const std::string& title, const std::string& big, const std::string& body) {
  return "<div class=\"card\"><h2>" + Html(title) + "</h2><div class=\"big\">" + Html(big) +
         "</div>" + body + "</div>";
}

std::string PodsCard(const PodCounts& c) {
  std::vector<std::string> legend = {LegendItem("s-allocated", Count(c.scheduled) + " scheduled"),
                                     LegendItem("s-tainted", Count(c.pending) + " Pending")};
  if (c.finished > 0) legend.push_back("<span>" + Count(c.finished) + " finished</span>");
  std::int64_t pods = c.scheduled + c.pending;
  return Card("Pods scheduled", Count(c.scheduled) + " of " + Count(pods),
              PodStack(c.scheduled, c.pending, Tally(c.scheduled, pods, "pods scheduled")) +
                  Legend(legend));
}

std::string DevicesCard(const Utilization& u) {
  return Card("Devices in use", Count(u.devices_used) + " of " + Count(u.devices),
              DeviceStack(u.devices_used, u.devices, Tally(u.devices_used, u.devices, "in use")) +
                  Legend({LegendItem("s-allocated", Count(u.devices_used) + " in use"),
                          LegendItem("s-free", Count(u.devices - u.devices_used) + " free")}));
}

std::string PendingCard(const Scheduler& s, const PodCounts& c) {
  std::map<std::string, std::size_t> stages;
  for (const PodRecord& p : s.pods()) {
    if (IsPending(p)) ++stages[PendingStage(p)];
  }
  std::vector<std::string> legend;
  legend.reserve(stages.size());
  for (const auto& [stage, n] : stages)
    legend.push_back("<span>" + Html(Count(n) + " blocked at " + stage) + "</span>");
  return Card("Pending pods", Count(c.pending), Legend(legend));
}

std::string TimingCard(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  std::vector<std::string> legend = {
      "<span>" + Plural(s.nodes().size(), "node") + "</span>",
      "<span>" + Plural(s.stats().attempts, "scheduling attempt") + "</span>"};
  if (report.schedule_seconds > 0) {
    legend.push_back("<span>" +
                     Fixed(static_cast<double>(s.stats().bound) / report.schedule_seconds, 0) +
                     " pods/s</span>");
  }
  return Card("Scheduling time", Fixed(report.schedule_seconds * 1000, 1) + " ms", Legend(legend));
}

std::string Cards(const SimulationReport& report, const PodCounts& c) {
  return "<section class=\"cards\">" + PodsCard(c) + DevicesCard(report.utilization) +
         PendingCard(*report.scheduler, c) + TimingCard(report) + "</section>\n";
}

// --compare device-plugin: the same workload's pods and devices under both models.
std::string ComparisonSection(const SimulationReport& report, const PodCounts& c) {
  const scheduler::DevicePluginResult& dp = *report.device_plugin;
  const Utilization& u = report.utilization;
  auto pods = [](const std::string& label, std::int64_t scheduled, std::int64_t pending) {
    std::string tally = Tally(scheduled, scheduled + pending, "scheduled");
    return Row(label, PodStack(scheduled, pending, tally), tally);
  };
  auto devices = [](const std::string& label, std::int64_t used, std::int64_t total) {
    std::string tally = Tally(used, total, "in use");
    return Row(label, DeviceStack(used, total, tally), tally);
  };
  return "<section><h2>DRA compared with the device-plugin model</h2><div class=\"rows\">" +
         pods("DRA: pods", c.scheduled, c.pending) +
         pods("device plugin: pods", dp.scheduled, dp.pending) +
         devices("DRA: devices", u.devices_used, u.devices) +
         devices("device plugin: devices", dp.devices_used, dp.devices) + "</div>" +
         Legend({LegendItem("s-allocated", "scheduled or in use"),
                 LegendItem("s-tainted", "Pending"), LegendItem("s-free", "free")}) +
         "</section>\n";
}

std::string NodeTally(const NodeUtilization& n) {
  return Tally(n.devices_used, n.devices, "devices in use") + " · " +
         Plural(static_cast<std::size_t>(n.pods), "pod");
}

std::string NodeGrid(const std::vector<NodeUtilization>& nodes) {
  std::string out = "<div class=\"nodegrid\">";
  for (const NodeUtilization& n : nodes) {
    std::string tally = NodeTally(n);
    out += "<div class=\"node\"><div class=\"name\">" + Html(n.name) + "</div>" +
           DeviceStack(n.devices_used, n.devices, tally) + "<div class=\"figure\">" + Html(tally) +
           "</div></div>";
  }
  return out + "</div>";
}

double Share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0;
}

std::string HeatSquare(const NodeUtilization& n) {
  double f = Share(n.devices_used, n.devices);
  std::string tip = Html(n.name + ": " + NodeTally(n));
  return "<button type=\"button\" title=\"" + tip + "\" aria-label=\"" + tip +
         "\" style=\"background:rgb(" + Fixed(215 - 156 * f, 0) + "," + Fixed(239 - 128 * f, 0) +
         "," + Fixed(224 - 12 * f, 0) + ")\"></button>";
}

// One square per node, fullest first, shaded by its share of devices in use
// (the dashboard's colours).
std::string NodeHeat(const std::vector<NodeUtilization>& nodes) {
  std::vector<const NodeUtilization*> sorted;
  sorted.reserve(nodes.size());
  for (const NodeUtilization& n : nodes) sorted.push_back(&n);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    return Share(a->devices_used, a->devices) > Share(b->devices_used, b->devices);
  });
  std::string out =
      "<div class=\"scale\"><span>0%</span><span class=\"ramp\"></span>"
      "<span>100% of devices in use</span></div><div class=\"heat\">";
  for (const NodeUtilization* n : sorted) out += HeatSquare(*n);
  return out + "</div>";
}

std::string NodesSection(const Utilization& u) {
  return "<section><h2>Devices in use per node <span class=\"muted\">" +
         Plural(u.nodes.size(), "node") + "; a partitionable device counts once</span></h2>" +
         (u.nodes.size() <= kNodeCards ? NodeGrid(u.nodes) : NodeHeat(u.nodes)) + "</section>\n";
}

std::string PartitionCell(const DeviceUse& d) {
  std::string claims = Joined(d.claims, ", ");
  return "<div class=\"cell allocated\" title=\"" +
         Html(d.driver + "/" + d.pool + "/" + d.device + ": allocated to " + claims) +
         "\"><div class=\"dname\">" + Html(d.device) + "</div><div class=\"sub\">" + Html(claims) +
         "</div></div>";
}

// A counter set drawn as the physical device it stands for: its counters,
// consumed / total, and the partitions allocated from it.
std::string CounterSetBox(const PartitionUse& p, const std::vector<const DeviceUse*>& partitions) {
  std::string name = p.pool + "/" + p.counter_set;
  if (!p.node.empty() && p.node != p.pool) name += " on " + p.node;
  std::string out = "<div class=\"parent\" title=\"" +
                    Html(p.driver + "/" + p.pool + "/" + p.counter_set) +
                    "\"><div class=\"title\">" + Html(name) + " (shared counters, " +
                    Plural(partitions.size(), "partition") + " in use)</div>" + UseRows(p.counters);
  if (!partitions.empty()) {
    out += "<div class=\"cells\">";
    for (const DeviceUse* d : partitions) out += PartitionCell(*d);
    out += "</div>";
  }
  return out + "</div>";
}

std::string PartitionsSection(const Utilization& u) {
  std::map<std::string, std::vector<const DeviceUse*>> in_use;  // by driver/pool/set
  for (const DeviceUse& d : u.in_use) {
    if (!d.counter_set.empty()) in_use[d.driver + "/" + d.pool + "/" + d.counter_set].push_back(&d);
  }
  std::string out =
      "<section><h2>Partitionable devices <span class=\"muted\">counter sets: counters "
      "consumed / total, and the partitions allocated</span></h2><div class=\"map\">";
  for (const PartitionUse& p : u.partitions) {
    out += CounterSetBox(p, in_use[p.driver + "/" + p.pool + "/" + p.counter_set]);
  }
  return out + "</div></section>\n";
}

// Devices with consumable capacity (allowMultipleAllocations); empty when none.
std::string SharedDevicesSection(const Utilization& u) {
  std::string rows;
  for (const DeviceUse& d : u.in_use) {
    if (d.capacity.empty()) continue;
    rows += "<tr><td class=\"nowrap\">" + Html(d.driver + "/" + d.pool + "/" + d.device) +
            "</td><td class=\"nowrap\">" + Html(d.node.empty() ? "(not node-local)" : d.node) +
            "</td><td class=\"msg\">" + Html(Plural(d.claims.size(), "claim")) +
            "<div class=\"muted\">" + Html(Joined(d.claims, ", ")) + "</div></td><td>" +
            UseRows(d.capacity) + "</td></tr>";
  }
  if (rows.empty()) return "";
  return "<section><h2>Shared devices <span class=\"muted\">consumable capacity</span></h2>"
         "<table><thead><tr><th>Device</th><th>Node</th><th>Claims</th>"
         "<th>Capacity (consumed / total)</th></tr></thead><tbody>" +
         rows + "</tbody></table></section>\n";
}

// The dashboard's explanation table: a row per request, a column per
// allocator stage with the devices it removed, the blocking stage marked.
// Only the stages that removed something or block are columns, as on the
// dashboard: ten columns of zeros would hide the one that matters.
std::string ExplanationTable(const allocator::Explanation& x) {
  bool shown[allocator::kStageCount] = {};
  for (const allocator::EntryExplanation& e : x.entries) {
    for (int s = 0; s < allocator::kStageCount; ++s) {
      shown[s] = shown[s] || e.removed[s] > 0 || (e.blocks && static_cast<int>(e.blocking) == s);
    }
  }
  std::string head = "<tr><th>Request</th><th>Devices</th>";
  for (int s = 0; s < allocator::kStageCount; ++s) {
    if (!shown[s]) continue;
    head += "<th>" + Html(allocator::StageName(static_cast<allocator::Stage>(s))) + "</th>";
  }
  head += "<th>Left</th><th>Needed</th></tr>";
  std::string rows, notes;
  for (const allocator::EntryExplanation& e : x.entries) {
    rows += "<tr><td>" + Html(e.claim + " " + e.request) + "</td><td class=\"num\">" +
            std::to_string(e.candidates) + "</td>";
    for (int s = 0; s < allocator::kStageCount; ++s) {
      if (!shown[s]) continue;
      bool block = e.blocks && static_cast<int>(e.blocking) == s;
      rows += std::string("<td class=\"num") + (block ? " block" : "") + "\">" +
              (e.removed[s] > 0 ? "&minus;" + std::to_string(e.removed[s]) : "") + "</td>";
    }
    rows += "<td class=\"num\">" + std::to_string(e.remaining) + "</td><td class=\"num\">" +
            (e.all_mode ? "all" : std::to_string(e.requested)) + "</td></tr>";
    if (e.class_absent_here)
      notes += "<div class=\"muted\">" + Html(allocator::AbsentText(e)) + "</div>";
    if (!e.note.empty()) notes += "<div class=\"muted\">note: " + Html(e.note) + "</div>";
  }
  return "<div class=\"explain\"><div class=\"summary\">" +
         Html("On " + x.node + ": " + x.summary) + "</div><table><thead>" + head +
         "</thead><tbody>" + rows + "</tbody></table>" + notes + "</div>";
}

// A Pending pod with the stage it is blocked at and its reason, and under it
// the allocator's explanation.
std::string PendingRows(const PodRecord& p) {
  std::string stage = Html(PendingStage(p));
  std::string out = std::string(p.explanation ? "<tr class=\"explained\">" : "<tr>") + "<td>" +
                    Html(p.pod.metadata.namespace_ + "/" + p.pod.metadata.name) +
                    "</td><td><span class=\"badge " + stage + "\">" + stage +
                    "</span></td><td class=\"msg\">" + Html(p.reason) + "</td></tr>";
  if (p.explanation) {
    out += "<tr><td colspan=\"3\">" + ExplanationTable(*p.explanation) + "</td></tr>";
  }
  return out;
}

std::string PendingSection(const Scheduler& s) {
  std::string rows;
  for (const PodRecord& p : s.pods()) {
    if (IsPending(p)) rows += PendingRows(p);
  }
  return "<section><h2>Pending pods</h2><table class=\"pending\"><colgroup><col class=\"pod\">"
         "<col class=\"stage\"><col></colgroup><thead><tr><th>Pod</th><th>Blocked at</th>"
         "<th>Reason</th></tr></thead><tbody>" +
         rows + "</tbody></table></section>\n";
}

std::string PlacementsSection(const Scheduler& s) {
  std::string rows;
  for (const PodRecord& p : s.pods()) {
    if (p.deleted || p.state != PodState::kBound) continue;
    rows += "<tr><td>" + Html(p.pod.metadata.namespace_ + "/" + p.pod.metadata.name) + "</td><td>" +
            Html(p.node) + "</td><td>" + Html(Joined(p.claims, ", ")) + "</td></tr>";
  }
  return "<section><h2>Placements</h2><table><thead><tr><th>Pod</th><th>Node</th>"
         "<th>Claims</th></tr></thead><tbody>" +
         rows + "</tbody></table></section>\n";
}

std::string PreparedRows(const scheduler::PreparedPod& p) {
  std::string rows;
  std::string pod = Html(p.namespace_ + "/" + p.name);
  for (const scheduler::PreparedContainer& c : p.containers) {
    rows += "<tr><td class=\"nowrap\">" + pod + "</td><td class=\"nowrap\">" + Html(p.node) +
            "</td><td>" + Html((c.init ? "init: " : "") + c.name) + "</td><td class=\"msg\">" +
            Html(Joined(c.cdi_devices, ", ")) + "</td></tr>";
  }
  for (const std::string& e : p.errors) {
    rows += "<tr><td class=\"nowrap\">" + pod + "</td><td class=\"nowrap\">" + Html(p.node) +
            "</td><td><span class=\"badge\">error</span></td><td class=\"msg\">" + Html(e) +
            "</td></tr>";
  }
  return rows;
}

// --prepare: each container's CDI devices, and what failed.
std::string PreparedSection(const scheduler::PrepareReport& pr) {
  std::string rows;
  for (const scheduler::PreparedPod& p : pr.pods) rows += PreparedRows(p);
  std::string out = "<section><h2>Prepared devices</h2><p class=\"muted\">" +
                    Html(scheduler::PrepareSummaryText(pr)) + "</p>";
  for (const std::string& e : pr.errors) out += "<div class=\"banner\">" + Html(e) + "</div>";
  return out +
         "<table><thead><tr><th>Pod</th><th>Node</th><th>Container</th><th>CDI devices</th>"
         "</tr></thead><tbody>" +
         rows + "</tbody></table></section>\n";
}

std::string WarningsSection(const std::vector<std::string>& warnings) {
  std::string out = "<section><h2>Warnings</h2><ul>";
  for (const std::string& w : warnings) out += "<li>" + Html(w) + "</li>";
  return out + "</ul></section>\n";
}

}  // namespace

std::string SimulationHtml(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  PodCounts c = scheduler::CountPods(s);
  std::string out = Head() + TopBar(report, c) + "<main>\n" + Cards(report, c);
  if (report.device_plugin != nullptr) out += ComparisonSection(report, c);
  out += NodesSection(u);
  if (c.pending > 0) out += PendingSection(s);
  if (!u.partitions.empty()) out += PartitionsSection(u);
  out += SharedDevicesSection(u);
  out += PlacementsSection(s);
  if (report.prepare != nullptr) out += PreparedSection(*report.prepare);
  if (!s.cluster().warnings.empty()) out += WarningsSection(s.cluster().warnings);
  return out + "</main>\n</body>\n</html>\n";
}

}  // namespace dra::cli
