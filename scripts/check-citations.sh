#!/usr/bin/env bash
# Fails when a comment or document cites notes that are not part of the
# repository (sections such as "spec 4.2" or "allocator.md 17.1", or the
# ../shared/spec directory). Cite upstream sources instead: a KEP number, or
# an upstream file and function at the pinned release, or state the fact.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
pattern='\bspec [0-9]+(\.[0-9]+)*\b|\bspec (api|cel|allocator|scheduler|node|kube|cluster)\.md|\b(api|cel|allocator|scheduler|node|kube|cluster)\.md\b|shared/spec'
# "semver.org spec 2.0.0" is upstream's own error text.
hits=$(git ls-files -z | xargs -0 grep -nIE "$pattern" -- 2>/dev/null |
  grep -v 'semver\.org spec 2\.0\.0' | grep -v '^scripts/check-citations\.sh:')
if [[ -n "$hits" ]]; then
  echo "$hits"
  echo "citations: the lines above cite notes that are not in the repository"
  exit 1
fi
echo "citations: clean"
