#!/usr/bin/env bash
# scripts/device/carry.sh — packs what a GPU visit needs into .carry/ (git-ignored; pass `carry: [".carry"]`):
# the ucutlass, ucutlass-worker and ucutlass-mskb-worker binaries, the planted fixtures, the CUTLASS headers (a tarball) and the
# kernel build cache, so the GPU machine (no package registry, no network) runs without building anything.
# KERNELBENCH=1 adds KernelBench's level1-3 problem files (snapshot 423217d, from the local mirror) in
# .carry/kernelbench/KernelBench for visit.sh's kbcross job, and its evaluation code (src/kernelbench, with a COMMIT
# file) so that .carry/kernelbench is a checkout for the kbeval job; they are never committed.
# NO_MSKB=1 leaves out the MSKB worker (visits without the mskb job). BEFORE=DIR adds the ucutlass and
# ucutlass-worker of another build folder (another commit's) as .carry/bin/before/, for visit.sh's smokecmp job.
#   BUILD=build [KERNELBENCH=1] [NO_MSKB=1] [BEFORE=DIR] scripts/device/carry.sh [bench work dirs to include...]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
build=${BUILD:-build}
cache=${UCUT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ucutlass}  # where ucutlass builds (build/cache.cpp)
cutlass=${CUTLASS_DIR:-$root/.deps/nvidia-cutlass-4.2.0.0/cutlass_library/source}
rm -rf .carry && mkdir -p .carry/bin .carry/planted .carry/work
strip -o .carry/bin/ucutlass "$build/ucutlass"
strip -o .carry/bin/ucutlass-worker "$build/ucutlass-worker"
# CUPTI (both workers' view of every stream) in case the GPU machine's toolkit lacks it; visit.sh puts it last on the path.
cupti=$(ldd "$build/ucutlass-worker" 2>/dev/null | awk '/libcupti/ {print $3}' || true)
if [ -n "$cupti" ]; then mkdir -p .carry/lib && cp -L "$cupti" .carry/lib/; fi
if [ -z "${NO_MSKB:-}" ]; then strip -o .carry/bin/ucutlass-mskb-worker "$build/ucutlass-mskb-worker"; fi
cp "$build"/planted/*.so .carry/planted/ 2>/dev/null || true
if [ -n "${BEFORE:-}" ]; then
  mkdir -p .carry/bin/before
  strip -o .carry/bin/before/ucutlass "$BEFORE/ucutlass"
  strip -o .carry/bin/before/ucutlass-worker "$BEFORE/ucutlass-worker"
fi
# CUTLASS's fused multi-head attention (examples/41: the `attention` library call's kernel_forward.h) where the
# CUTLASS folder has it; the pinned package does.
attention=examples/41_fused_multi_head_attention
tar czf .carry/cutlass.tgz -C "$cutlass" include tools/util/include $([ -d "$cutlass/$attention" ] && echo $attention)
# Only finished cache entries (kernel.so present); failed and in-progress builds stay home. Compressed: a kernel
# library shrinks about 5x, and the tracked tree and the carry together must stay under the device tool's 64 MiB.
# A machine that has built nothing yet (no cache folder) carries an empty archive: the GPU machine builds instead.
kernels=()
if [ -d "$cache" ]; then
  mapfile -t kernels < <(cd "$cache" && find . -name kernel.so -printf '%h\n' | sort)
  printf '%s\n' "${kernels[@]}" | tar czf .carry/cache.tgz -C "$cache" -T -
else
  tar czf .carry/cache.tgz -T /dev/null
fi
if [ ${#kernels[@]} -gt 0 ]; then
  echo "kernel cache: ${#kernels[@]} built kernels from $cache"
else
  echo "kernel cache: none built in $cache$([ -d "$cache" ] || echo ' (no such folder yet)'): none carried; the GPU" \
    "machine builds the kernels it needs"
fi
for w in "$@"; do cp -r "$w" .carry/work/; done
if [ -n "${KERNELBENCH:-}" ]; then
  mkdir -p .carry/kernelbench
  git -C "${KERNELBENCH_MIRROR:-/work/.mirror/ScalingIntelligence+KernelBench/repo}" archive 423217d \
    KernelBench/level1 KernelBench/level2 KernelBench/level3 src/kernelbench | tar x -C .carry/kernelbench
  echo 423217d > .carry/kernelbench/COMMIT
  # torch.utils.cpp_extension (KernelBench's compile step) needs ninja; the GPU machine may lack it.
  cp "$(command -v ninja)" .carry/bin/
fi
# The binaries compressed too (about 3x; visit.sh unpacks them).
tar czf .carry/bin.tgz -C .carry bin && rm -rf .carry/bin
du -sh .carry | cut -f1 | xargs echo ".carry:"
