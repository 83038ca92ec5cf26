#!/usr/bin/env bash
# The end-to-end gain of one pnpm patch (patches/README.md): `pnpm bench:import` (cycles only) run alternately
# with the patch applied (A) and with the package's patched files put back as published (B), A B A B ... A,
# so that every B run sits between two A runs. Prints each run's figures and, per B, the gain against the mean
# of its two neighbours: items/s with / without - 1 and worker CPU per item without / with - 1.
#
#   bash bench/patch-gain.sh patches/sax@1.4.3.patch [pairs, default 3]
#
# The unpatched files are made by reversing the patch on copies; they replace the installed files by rename
# (pnpm may hard-link installed files to its store: they are never written in place), and the installed
# files are put back on exit. Run it where nothing else rebuilds node_modules meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."

patch_file=${1:?usage: bash bench/patch-gain.sh patches/<name>@<version>.patch [pairs]}
pairs=${2:-3}
spec=$(basename "$patch_file" .patch) # e.g. sax@1.4.3, @scope__name@1.0.0
package=${spec%@*}
package=${package/__//}
package_dir=$(./node_modules/.bin/node -e "
  const { createRequire } = require('node:module');
  const { dirname } = require('node:path');
  const fs = require('node:fs');
  // The workspace package that depends on it (feeds, html), else the root.
  for (const from of ['packages/feeds/package.json', 'packages/html/package.json', 'package.json']) {
    try {
      let dir = dirname(createRequire(require('node:path').resolve(from)).resolve('$package'));
      while (!fs.existsSync(dir + '/package.json')) dir = dirname(dir);
      console.log(fs.realpathSync(dir));
      process.exit(0);
    } catch {}
  }
  process.exit(1);
")

work=$(mktemp -d)
files=$(grep '^+++ b/' "$patch_file" | sed 's#^+++ b/##')
for file in $files; do
  mkdir -p "$work/patched/$(dirname "$file")" "$work/unpatched/$(dirname "$file")"
  cp "$package_dir/$file" "$work/patched/$file"
  cp "$package_dir/$file" "$work/unpatched/$file"
done
(cd "$work/unpatched" && git apply -R "$OLDPWD/$patch_file")

use() { # patched | unpatched
  for file in $files; do
    cp "$work/$1/$file" "$package_dir/$file.patch-gain" && mv "$package_dir/$file.patch-gain" "$package_dir/$file"
  done
}
trap 'use patched; rm -rf "$work"' EXIT

results=()
run() { # A | B
  if [ "$1" = A ]; then use patched; else use unpatched; fi
  local out
  out=$(BENCH_PHASES=cycles pnpm --silent bench:import 2>&1)
  local items cpu load
  items=$(grep 'Cycle 1' <<<"$out" | sed -E 's/.*= ([0-9]+) items\/s.*/\1/')
  cpu=$(grep -A1 'Cycle 1' <<<"$out" | grep CPU | sed -E 's/.*worker [0-9.]+ s \(([0-9]+) ms.*/\1/')
  load=$(grep -A1 'Cycle 1' <<<"$out" | grep CPU | sed -E 's/.*load average ([0-9.]+).*/\1/')
  echo "$(date -u +%H:%M:%S) $1 $items items/s, worker $cpu ms per 1,000 items, load $load"
  results+=("$1 $items $cpu")
}

echo "$spec in $package_dir: $pairs pairs"
run A
for _ in $(seq "$pairs"); do
  run B
  run A
done

printf '%s\n' "${results[@]}" | awk '
  { kind[NR] = $1; items[NR] = $2; cpu[NR] = $3 }
  END {
    for (i = 2; i < NR; i += 2) {
      a_items = (items[i - 1] + items[i + 1]) / 2; a_cpu = (cpu[i - 1] + cpu[i + 1]) / 2
      printf "pair %d: gain %+.1f%% items/s, %+.1f%% worker CPU\n", i / 2, (a_items / items[i] - 1) * 100, (cpu[i] / a_cpu - 1) * 100
    }
  }'
