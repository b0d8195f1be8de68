#!/usr/bin/env bash
# scripts/test.sh — install, build and run the tests: unit + golden (GoogleTest), the Python tests of bench/,
# compile (nvcc builds a representative set of examples for sm_90a/sm_80, 6 random accepted specs (a new seed each
# run) and the fp32 MSKB launchers; `ctest --test-dir build-test -L compile` builds every example and both launcher
# sets), the fuzzer for a bounded time (ASan + UBSan), and the GPU tests where a GPU exists (reported as skipped
# otherwise; they run first so that a CPU-only run ends on tests that ran). .ci/run calls this.
# The tests build in their own tree, build-test/, at -O1 without debug info (UCUT_QUICK_BUILD: half the compile
# time), so scripts/main.sh's build/ keeps its RelWithDebInfo binaries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
jobs=$(nproc)
build=build-test
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUCUT_QUICK_BUILD=ON >/dev/null
cmake --build $build -j"$jobs"
echo "== GPU tests (skipped without a GPU)"
ctest --test-dir $build -L gpu --output-on-failure
echo "== unit and golden tests"
ctest --test-dir $build -L unit -j"$jobs" --output-on-failure
echo "== Python tests of bench/ (the suite's PyTorch side, with the torch scripts/setup.sh installed into .deps/)"
torch_path="$root/.deps/torch-2.11.0"
[ -f "$torch_path/.complete" ] || echo "note: no torch in .deps/ (UCUT_NO_TORCH=1): the torch tests skip"
PYTHONPATH="$torch_path${PYTHONPATH:+:$PYTHONPATH}" UCUTLASS="$root/$build/ucutlass" \
  python3 -m unittest discover -s bench/kernelbench -p 'test_*.py'
PYTHONPATH="$torch_path${PYTHONPATH:+:$PYTHONPATH}" UCUTLASS="$root/$build/ucutlass" \
  python3 -m unittest discover -s bench/family_torch -p 'test_*.py'   # `export --torch` of the family specs
python3 -m unittest discover -s bench/planted -p 'test_*.py'   # the planted run's judgement of its results
# the scripted model server of the agents' GPU run, and that run without a GPU (the MANTIS scripts played to their end
# with an nvcc that refuses to compile, the CUDAMaster script up to a building candidate of each task)
UCUTLASS="$root/$build/ucutlass" python3 -m unittest discover -s bench/agents -p 'test_*.py'
echo "== the MCP server through the official Python SDK (mcp 2.3.0, which scripts/setup.sh installed into .deps/)"
mcp_path="$root/.deps/mcp-2.3.0"
[ -f "$mcp_path/.complete" ] || echo "note: no mcp SDK in .deps/ (UCUT_NO_MCP=1): the MCP client test skips"
PYTHONPATH="$mcp_path${PYTHONPATH:+:$PYTHONPATH}" UCUTLASS="$root/$build/ucutlass" \
  python3 -m unittest discover -s tests/mcp -p 'test_*.py'
echo "== fuzzing the front end (${UCUT_FUZZ_SECONDS:-60} s, ASan + UBSan)"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DUCUT_FUZZ=ON -DUCUT_BUILD_TESTS=OFF \
      -DUCUT_WITH_CUDA=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target ucut_fuzz
mkdir -p build-fuzz/corpus
cp examples/*.ucut build-fuzz/corpus/
for f in tests/golden/check/*.ucut; do cp "$f" "build-fuzz/corpus/golden_$(basename "$f")"; done
build-fuzz/tests/fuzz/ucut_fuzz -max_total_time="${UCUT_FUZZ_SECONDS:-60}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 build-fuzz/corpus 2>&1 | tail -15
echo "== compile tests: nvcc for sm_90a and sm_80 (representative examples, fp32 MSKB launchers, the valid-implies-compiles property test)"
ctest --test-dir $build -L '^compile$' -j"$jobs" --output-on-failure
