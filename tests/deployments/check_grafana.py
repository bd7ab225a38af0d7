#!/usr/bin/env python3
"""Checks the Grafana dashboard of `dra serve` against docs/SERVE.md.

  check_grafana.py [DASHBOARD.json [SERVE.md]]

Defaults: deployments/grafana/dra-serve-dashboard.json and docs/SERVE.md of
this checkout. Checks the dashboard's identity (uid, title, schemaVersion), a
datasource variable of type prometheus that every panel and query uses, that
every other variable a query names is defined, unique panel ids, unique refIds
within a panel, grid positions inside 24 columns that do not overlap, and that
every query (panel targets and label_values() of query variables) names only
metrics of the metrics table of docs/SERVE.md (parsed from it: histograms with
their _bucket, _sum and _count series) and, in label matchers, only their
documented labels. When promtool is installed, the PromQL of every target is
also checked by `promtool check rules` (one recording rule each, Grafana's
variables replaced by placeholders). Python 3's standard library only.
Prints one "FAIL: ..." line per problem; exit 1 if any.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
UID = "dra-serve"
TITLE = "DRA devices (dra serve)"
SCHEMA_VERSION = 39
# Labels that Prometheus adds to every target's series.
TARGET_LABELS = {"job", "instance"}
# PromQL words that are neither metrics nor followed by "(".
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
            "offset", "inf", "nan"}

failures = []


def fail(msg):
    failures.append(msg)
    print(f"FAIL: {msg}")


def expect(cond, msg):
    if not cond:
        fail(msg)
    return cond


def table_cells(line):
    """The cells of a Markdown table row ("\\|" is a literal bar)."""
    cells = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip().replace("\\|", "|") for c in cells[1:-1]]


def documented_metrics(serve_md):
    """{metric name: set of labels} from the table under "## `/metrics`".

    A cell may name several metrics, "`a_x_total`, `..._y_total`": the "..."
    stands for the first name less the words it shares at its end with the
    abbreviated one and the word before them (here "a_"). A histogram brings
    its _bucket (label le), _sum and _count series.
    """
    with open(serve_md, encoding="utf-8") as f:
        lines = f.read().splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if re.match(r"^##\s+`/metrics`\s*$", l))
    except StopIteration:
        fail(f"{serve_md}: no section \"## `/metrics`\"")
        return {}
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.lstrip().startswith("|"):
            rows.append(table_cells(line))
        elif rows:
            break  # the end of the first table
    if not expect(len(rows) > 2, f"{serve_md}: no metrics table under \"## `/metrics`\""):
        return {}
    header = [h.lower() for h in rows[0]]
    if not expect(header[:3] == ["metric", "type", "labels"], f"{serve_md}: metrics table header {rows[0]}"):
        return {}
    metrics = {}
    for cells in rows[2:]:
        names = re.findall(r"`([^`]+)`", cells[0])
        mtype = cells[1].split()[0].lower() if cells[1] else ""
        labels = set(re.findall(r"`([^`]+)`", cells[2]))
        first = None
        for name in names:
            if name.startswith("..."):
                if not expect(first is not None, f"{serve_md}: {name} abbreviates no earlier name"):
                    continue
                tail = name[3:].lstrip("_").split("_")
                words = first.split("_")
                shared = 0
                while shared < min(len(tail), len(words) - 1) and tail[-1 - shared] == words[-1 - shared]:
                    shared += 1
                name = "_".join(words[:len(words) - shared - 1] + tail)
            elif first is None:
                first = name
            if not expect(re.fullmatch(r"[a-zA-Z_:][a-zA-Z0-9_:]*", name), f"{serve_md}: metric name {name!r}"):
                continue
            metrics[name] = labels
            if mtype == "histogram":
                metrics[name + "_bucket"] = labels | {"le"}
                metrics[name + "_sum"] = labels
                metrics[name + "_count"] = labels
    return metrics


STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)")
SELECTOR = re.compile(r"(?<![\w.:$])([A-Za-z_:][\w:]*)?\s*\{([^{}]*)\}")
IDENT = re.compile(r"(?<![\w.:$])[A-Za-z_:][\w:]*")
MATCHER = re.compile(r"([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)")


def promql_names(expr):
    """(metric names, [(metric or None, label names of its matchers)]) of a PromQL expression."""
    bare = STRING.sub('""', expr)
    selectors = [(m.group(1), MATCHER.findall(m.group(2))) for m in SELECTOR.finditer(bare)]
    bare = re.sub(r"\{[^{}]*\}", " ", bare)
    bare = re.sub(r"\[[^\[\]]*\]", " ", bare)
    while True:
        stripped = GROUPING.sub(" ", bare)
        if stripped == bare:
            break
        bare = stripped
    names = set()
    for m in IDENT.finditer(bare):
        word = m.group(0)
        if word.lower() in KEYWORDS or re.match(r"\s*\(", bare[m.end():]):
            continue  # a keyword, a function or an aggregation
        names.add(word)
    return names, selectors


VARIABLE = re.compile(r"\$\{(\w+)(?::[^}]*)?\}|\$(\w+)|\[\[(\w+)(?::[^\]]*)?\]\]")


def variable_refs(text):
    """Grafana variables named in text: $name, ${name}, ${name:format}, [[name]]."""
    return {next(g for g in groups if g) for groups in VARIABLE.findall(text)}


def for_promtool(expr):
    """expr with Grafana's variables replaced by valid PromQL."""
    expr = re.sub(r"\$\{__\w+(?::[^}]*)?\}|\$__\w+", "5m", expr)  # $__rate_interval, $__range, ...
    return re.sub(r"\$\{\w+(?::[^}]*)?\}|\$\w+|\[\[\w+(?::[^\]]*)?\]\]", "1", expr)


def all_panels(panels):
    for p in panels:
        yield p
        yield from all_panels(p.get("panels", []))


def check_expr(where, expr, metrics, variables):
    names, selectors = promql_names(expr)
    expect(names, f"{where}: no metric in {expr!r}")
    for name in sorted(names):
        expect(name in metrics, f"{where}: {name} is not a metric of the table in docs/SERVE.md ({expr!r})")
    for metric, labels in selectors:
        expect(metric, f"{where}: a selector without a metric name ({expr!r})")
        if metric in metrics:
            unknown = set(labels) - metrics[metric] - TARGET_LABELS
            expect(not unknown, f"{where}: {metric} has no label {sorted(unknown)} in docs/SERVE.md ({expr!r})")
    for v in sorted(variable_refs(expr)):
        expect(v.startswith("__") or v in variables, f"{where}: undefined variable ${v} in {expr!r}")


def main():
    args = sys.argv[1:]
    if len(args) > 2 or any(a.startswith("-") for a in args):
        print(__doc__.strip())
        return 2
    dashboard_path = args[0] if args else os.path.join(ROOT, "deployments", "grafana", "dra-serve-dashboard.json")
    serve_md = args[1] if len(args) > 1 else os.path.join(ROOT, "docs", "SERVE.md")
    metrics = documented_metrics(serve_md)
    with open(dashboard_path, encoding="utf-8") as f:
        dash = json.load(f)

    expect(dash.get("uid") == UID, f"uid {dash.get('uid')!r}, not {UID!r}")
    expect(dash.get("title") == TITLE, f"title {dash.get('title')!r}, not {TITLE!r}")
    expect(dash.get("schemaVersion") == SCHEMA_VERSION, f"schemaVersion {dash.get('schemaVersion')}")

    # Variables: a prometheus datasource variable, and what the rest use.
    var_list = dash.get("templating", {}).get("list", [])
    variables = {v.get("name"): v for v in var_list}
    expect(len(variables) == len(var_list), f"variable names repeat: {[v.get('name') for v in var_list]}")
    ds = variables.get("datasource", {})
    expect(ds.get("type") == "datasource" and ds.get("query") == "prometheus",
           f"no variable datasource of type datasource, query prometheus: {ds}")
    ds_refs = {"${datasource}", "$datasource"}

    def uses_datasource(where, d):
        expect(isinstance(d, dict) and d.get("type") == "prometheus" and d.get("uid") in ds_refs,
               f"{where}: datasource {d}, not the ${{datasource}} variable")

    for name, v in variables.items():
        if v.get("type") != "query":
            continue
        uses_datasource(f"variable {name}", v.get("datasource"))
        query = v.get("query")
        query = query.get("query", "") if isinstance(query, dict) else query or ""
        m = re.fullmatch(r"\s*label_values\(\s*([A-Za-z_:][\w:]*)\s*,\s*(\w+)\s*\)\s*", query)
        if expect(m, f"variable {name}: query {query!r} is not label_values(METRIC, LABEL)"):
            metric, label = m.groups()
            if expect(metric in metrics, f"variable {name}: {metric} is not a metric of docs/SERVE.md"):
                expect(label in metrics[metric], f"variable {name}: {metric} has no label {label}")
    for name in variables:
        expect(name.isidentifier(), f"variable name {name!r}")

    # Panels.
    panels = list(all_panels(dash.get("panels", [])))
    expect(panels, "no panels")
    ids = [p.get("id") for p in panels]
    expect(all(isinstance(i, int) for i in ids), f"panel ids {ids}")
    dup = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    expect(not dup, f"panel ids repeat: {dup}")
    rects = []
    exprs = []
    for p in panels:
        where = f"panel {p.get('id')} ({p.get('title')!r})"
        g = p.get("gridPos", {})
        if expect(all(isinstance(g.get(k), int) for k in "xywh"), f"{where}: gridPos {g}"):
            expect(g["x"] >= 0 and g["y"] >= 0 and g["w"] > 0 and g["h"] > 0 and g["x"] + g["w"] <= 24,
                   f"{where}: gridPos {g} outside 24 columns")
            if any(p is q for q in dash.get("panels", [])):
                rects.append((where, g))
        if p.get("type") == "row":
            expect(not p.get("targets"), f"{where}: a row with queries")
            continue
        expect(p.get("title"), f"{where}: no title")
        uses_datasource(where, p.get("datasource"))
        targets = p.get("targets", [])
        expect(targets, f"{where}: no targets")
        refs = [t.get("refId") for t in targets]
        expect(len(set(refs)) == len(refs) and all(refs), f"{where}: refIds {refs}")
        for t in targets:
            if "datasource" in t:
                uses_datasource(f"{where} target {t.get('refId')}", t["datasource"])
            expr = t.get("expr", "")
            if expect(isinstance(expr, str) and expr.strip(), f"{where} target {t.get('refId')}: no expr"):
                check_expr(f"{where} target {t.get('refId')}", expr, metrics, variables)
                exprs.append((f"panel_{p.get('id')}:{t.get('refId')}", expr))
    for i, (a, ga) in enumerate(rects):
        for b, gb in rects[i + 1:]:
            overlap = (ga["x"] < gb["x"] + gb["w"] and gb["x"] < ga["x"] + ga["w"]
                       and ga["y"] < gb["y"] + gb["h"] and gb["y"] < ga["y"] + ga["h"])
            expect(not overlap, f"{a} and {b} overlap: {ga}, {gb}")

    # PromQL syntax, by promtool when installed.
    promtool = os.environ.get("PROMTOOL") or shutil.which("promtool") or "/usr/bin/promtool"
    if not os.access(promtool, os.X_OK):
        print(f"promtool not installed: the PromQL of {len(exprs)} queries was not parsed")
    elif exprs:
        with tempfile.TemporaryDirectory(prefix="dra-grafana-") as tmp:
            rules = os.path.join(tmp, "dashboard-rules.yaml")
            with open(rules, "w", encoding="utf-8") as f:
                f.write("groups:\n  - name: dra-serve-dashboard\n    rules:\n")
                for record, expr in exprs:
                    # JSON strings are YAML double-quoted scalars.
                    f.write(f"      - record: grafana:{record}\n        expr: {json.dumps(for_promtool(expr))}\n")
            run = subprocess.run([promtool, "check", "rules", rules], capture_output=True, text=True)
            out = (run.stdout + run.stderr).strip()
            if expect(run.returncode == 0, f"promtool check rules: {out}"):
                print(f"promtool check rules: {len(exprs)} queries parse")

    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print(f"{os.path.relpath(dashboard_path, ROOT)}: {len(panels)} panels, {len(exprs)} queries over "
          f"{len({n for _, e in exprs for n in promql_names(e)[0]})} metrics of docs/SERVE.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
