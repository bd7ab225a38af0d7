#!/usr/bin/env bash
# Checks the layering of src/layers.txt over every #include in src/ and
# include/dra/, and the shape of the public API, naming file and line:
#   - a file of layer L (src/L/, include/dra/L/) includes only headers of L
#     and of the layers the table lists below L;
#   - a public header (include/dra/) includes no private header (src/), no
#     generated protobuf header and no CLI11 header;
#   - nothing in src/ or include/ includes from tests/;
#   - drivers are extensions: only their own directories and
#     src/driver/builtin_extensions.cc include src/driver/<driver>/.
# The build enforces the first rule too (each layer compiles against a view
# of its own layers only); this check says it in one line per include and
# runs before any build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python3 - <<'PY'
import os, re, sys

below = {}
for line in open("src/layers.txt"):
    m = re.match(r"^([a-z]+):(.*)$", line)
    if m:
        below[m.group(1)] = set(m.group(2).split())
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
problems = []

def layer_of_include(path):
    """('public'|'private'|'proto'|None, layer) of an include string."""
    parts = path.split("/")
    if parts[0] == "dra" and len(parts) > 2:
        return "public", parts[1]
    if parts[0] == "kubelet" and path.endswith(".pb.h"):
        return "proto", "proto"
    if len(parts) > 1 and parts[0] in below:
        return "private", parts[0]
    return None, None

for top, public in (("src", False), ("include/dra", True)):
    for dirpath, _, files in os.walk(top):
        rel = os.path.relpath(dirpath, top).split(os.sep)
        layer = rel[0]
        if layer == ".":
            continue
        if layer not in below:
            problems.append(f"{dirpath}: layer {layer} is not in src/layers.txt")
            continue
        allowed = below[layer] | {layer}
        for f in sorted(files):
            if not f.endswith((".h", ".cc")):
                continue
            path = os.path.join(dirpath, f)
            for n, text in enumerate(open(path, encoding="utf-8"), 1):
                m = include.match(text)
                if not m:
                    continue
                inc = m.group(1)
                kind, target = layer_of_include(inc)
                where = f"{path}:{n}: #include \"{inc}\""
                driver_dir = re.match(r"driver/(example|nvml)/", inc)
                if driver_dir and not (path.startswith(f"src/{driver_dir.group(0)}") or
                                       path == "src/driver/builtin_extensions.cc"):
                    problems.append(f"{where}: only the driver itself and "
                                    "src/driver/builtin_extensions.cc include a driver "
                                    "(find it with FindDriverExtension)")
                if inc.startswith(("tests/", "../")):
                    problems.append(f"{where}: product code includes test or relative paths")
                elif kind is None:
                    if public and not inc.startswith("dra/"):
                        problems.append(f"{where}: a public header includes a private header")
                    continue  # a header of the same directory
                elif target not in allowed:
                    problems.append(f"{where}: layer {layer} may not use layer {target} "
                                    f"(src/layers.txt: {layer}: {' '.join(sorted(below[layer])) or '-'})")
                elif public and kind != "public":
                    problems.append(f"{where}: a public header includes "
                                    f"{'generated protobuf code' if kind == 'proto' else 'a private header'}")
            if public:
                for n, text in enumerate(open(path, encoding="utf-8"), 1):
                    if re.match(r'^\s*#\s*include\s+[<"]CLI/', text):
                        problems.append(f"{path}:{n}: a public header includes CLI11")
for p in problems:
    print(p)
print(f"layers: {len(problems)} problem(s)" if problems else "layers: clean")
sys.exit(1 if problems else 0)
PY
