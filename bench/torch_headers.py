"""What the bench/ tests that compile an exported binding share: CUDA's include folder as PyTorch's extension builder
finds it, and the compiler command that checks a binding's syntax against torch's, CUDA's and Python's headers."""
import os
import sysconfig


def cuda_include():
    """CUDA's include folder as PyTorch's extension builder finds it, or None."""
    try:
        from torch.utils.cpp_extension import CUDA_HOME
    except Exception:  # noqa: BLE001  an import that looks for CUDA may fail in many ways
        return None
    path = CUDA_HOME and os.path.join(CUDA_HOME, "include")
    return path if path and os.path.isfile(os.path.join(path, "cuda_runtime_api.h")) else None


def syntax_check_command():
    """`c++ -fsyntax-only` with torch's, CUDA's and Python's headers as system includes; the source comes after."""
    from torch.utils.cpp_extension import include_paths
    # C++20: PyTorch's headers require it from 2.10 on (an #error under C++17), and older ones accept it.
    flags = ["c++", "-std=c++20", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-parameter",
             "-DTORCH_EXTENSION_NAME=ucut_test"]
    for path in include_paths() + [cuda_include(), sysconfig.get_paths()["include"]]:
        flags[1:1] = ["-isystem", path]
    return flags
