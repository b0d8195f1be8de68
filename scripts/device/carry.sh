#!/usr/bin/env bash
# scripts/device/carry.sh — packs what a GPU visit needs into .carry/ (git-ignored; pass `carry: [".carry"]`):
# the ucutlass and ucutlass-worker binaries, the planted fixtures, the CUTLASS headers (a tarball) and the
# kernel build cache, so the GPU machine (no package registry, no network) runs without building anything.
#   BUILD=build scripts/device/carry.sh [bench work dirs to include...]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
build=${BUILD:-build}
cache=${UCUT_CACHE_DIR:-$HOME/.cache/ucutlass}
cutlass=${CUTLASS_DIR:-$root/.deps/nvidia-cutlass-4.2.0.0/cutlass_library/source}
rm -rf .carry && mkdir -p .carry/bin .carry/planted .carry/work
strip -o .carry/bin/ucutlass "$build/ucutlass"
strip -o .carry/bin/ucutlass-worker "$build/ucutlass-worker"
cp "$build"/planted/*.so .carry/planted/ 2>/dev/null || true
tar czf .carry/cutlass.tgz -C "$cutlass" include tools/util/include
# Only finished cache entries (kernel.so present); failed and in-progress builds stay home.
mkdir -p .carry/cache
(cd "$cache" && find . -name kernel.so -printf '%h\n' | tar cf - -T - ) | tar xf - -C .carry/cache
for w in "$@"; do cp -r "$w" .carry/work/; done
du -sh .carry | cut -f1 | xargs echo ".carry:"
