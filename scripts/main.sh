#!/usr/bin/env bash
# The main job: set up, build dra, and validate the bundled example manifests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh" release dra
exec "$root/build/dra" validate -R -f "$root/examples" "$@"
