#!/usr/bin/env bash
# The main job: set up, build dra, and simulate the bundled mixed H100/A100
# fleet (MIG partitions through shared counters, shared GPUs through
# consumable capacity) under DRA, side by side with the device-plugin model.
# Extra arguments go to `dra simulate` (e.g. -o json, -o html > report.html).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh" release dra
exec "$root/build/dra" simulate -f "$root/examples/clusters/mixed-fleet" --compare device-plugin "$@"
