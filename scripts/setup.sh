#!/usr/bin/env bash
# scripts/setup.sh — installs what μCUTLASS needs, idempotently: Debian packages (apt) and the CUTLASS/CuTe
# headers from the PyPI package nvidia-cutlass, pinned, into .deps/ (git-ignored). The CUDA toolkit (nvcc,
# cuBLAS) is expected on the machine; without it everything except building and running kernels works.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
CUTLASS_VERSION=4.2.0.0   # verified with nvcc 13.0 for sm_90a (see README, "CUTLASS version")

packages=(cmake ninja-build g++ python3 python3-pip libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev
          libssl-dev libcurl4-openssl-dev libgtest-dev libsqlite3-dev clang-14 libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

dest="$root/.deps/nvidia-cutlass-$CUTLASS_VERSION"
if [ ! -f "$dest/cutlass_library/source/include/cutlass/cutlass.h" ]; then
  echo "setup: installing nvidia-cutlass==$CUTLASS_VERSION (headers only) into .deps/"
  python3 -m pip install -q --no-deps --target "$dest" "nvidia-cutlass==$CUTLASS_VERSION"
fi
echo "setup: CUTLASS headers in $dest/cutlass_library/source"

# PyTorch for the Python tests of bench/ (CPU only; the wheel pulls the CUDA 13 libraries, about 4.6 GB): installed
# once into .deps/ like the headers and reused; UCUT_NO_TORCH=1 skips it (those tests then say they skip).
TORCH_VERSION=2.11.0 NUMPY_VERSION=2.3.5   # the GPU machine's PyTorch (2.11.0+cu130)
torch_dest="$root/.deps/torch-$TORCH_VERSION"
if [ "${UCUT_NO_TORCH:-0}" != 1 ] && [ ! -f "$torch_dest/.complete" ]; then
  echo "setup: installing torch==$TORCH_VERSION and numpy==$NUMPY_VERSION into .deps/ (once; about 4.6 GB)"
  python3 -m pip install -q --target "$torch_dest" "torch==$TORCH_VERSION" "numpy==$NUMPY_VERSION"
  touch "$torch_dest/.complete"
fi
# The official MCP Python SDK, for the real-client test of `ucutlass mcp` (tests/mcp/): installed once into .deps/
# with its dependencies; UCUT_NO_MCP=1 skips it (that test then says it skips).
MCP_VERSION=2.3.0
mcp_dest="$root/.deps/mcp-$MCP_VERSION"
if [ "${UCUT_NO_MCP:-0}" != 1 ] && [ ! -f "$mcp_dest/.complete" ]; then
  echo "setup: installing mcp==$MCP_VERSION (the MCP Python SDK) into .deps/ (once)"
  python3 -m pip install -q --target "$mcp_dest" "mcp==$MCP_VERSION"
  touch "$mcp_dest/.complete"
fi
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] ||
  echo "setup: note: no nvcc found; kernels cannot be built here (check, compile and sol still work)"
