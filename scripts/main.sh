#!/usr/bin/env bash
# scripts/main.sh — the main job on a fresh machine: install, build, then check + compile an example spec,
# print its speed-of-light bounds, validate the KernelBench-derived suite, and measure it against cuBLAS where a GPU exists (or say that timing needs one).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
UCUT_NO_TORCH=1 UCUT_NO_MCP=1 scripts/setup.sh   # PyTorch and the MCP SDK are for the tests only (scripts/test.sh)
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
U=build/ucutlass
spec=examples/mlp_up.ucut
problem=problems/mlp_up_bf16.toml
echo "== ucutlass check $spec"
$U check "$spec"
echo "== ucutlass compile $spec -o build/mlp_up.cu"
$U compile "$spec" -o build/mlp_up.cu && wc -l build/mlp_up.cu
echo "== ucutlass sol --problem $problem"
$U sol --problem "$problem"
echo "== ucutlass suite check suites/kernelbench (the last lines)"
$U suite check suites/kernelbench | tail -4
echo "== ucutlass run $spec --problem $problem"
set +e
$U run "$spec" --problem "$problem"
status=$?
set -e
case $status in
  0) echo "main: done (verified and timed on the GPU)";;
  4) echo "main: done up to timing: this machine has no usable CUDA GPU, and timing needs one"; status=0;;
  *) echo "main: ucutlass run failed (exit $status)";;
esac
exit $status
