// support/host_device.h — UCUT_HD marks functions compiled for both the host and, under nvcc, the device
// (the reference arithmetic the worker runs on the GPU and the unit tests run on the CPU).
#pragma once

#if defined(__CUDACC__)
#define UCUT_HD __host__ __device__
#else
#define UCUT_HD
#endif
