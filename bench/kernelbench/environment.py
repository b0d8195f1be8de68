"""What a KernelBench baseline or cross-check ran on: GPU, driver, torch / CUDA / cuDNN versions and the float32
math flags PyTorch used (read only: these scripts never change them, except the cross-check, which says so)."""
import subprocess

import torch


def driver_version():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=60)
        return r.stdout.strip().splitlines()[0] if r.returncode == 0 and r.stdout.strip() else None
    except (OSError, subprocess.TimeoutExpired):
        return None


def math_flags():
    return {"cuda_matmul_allow_tf32": torch.backends.cuda.matmul.allow_tf32,
            "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32,
            "float32_matmul_precision": torch.get_float32_matmul_precision()}


def environment():
    gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else None
    return {"gpu": gpu, "driver": driver_version(), "torch": torch.__version__,
            "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(), **math_flags()}
