/* abi/kernel_abi.h — the ucutlass kernel ABI (UCUT_ABI_VERSION): how a harness calls any emitted kernel.
 * This file is compiled into the ucutlass tools and pasted verbatim into every emitted kernel, so both
 * sides see the same layout. Plain C, no CUDA headers: streams travel as void* (a cudaStream_t).
 * Slot order (vectors, scalars, aux outputs) is the order of the stages in the spec's `>>` chain;
 * the kernel's config_json lists every slot with its meaning. */
#ifndef UCUT_KERNEL_ABI_H
#define UCUT_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#define UCUT_ABI_VERSION 7
#define UCUT_MAX_VECTORS 4
#define UCUT_MAX_SCALARS 8
#define UCUT_MAX_AUX 2
#define UCUT_ENTRY_SYMBOL "ucut_entry"
#define UCUT_MAX_STAGES 32
#define UCUT_PIPELINE_ENTRY_SYMBOL "ucut_pipeline_entry"
#define UCUT_MAX_MEMOP_TENSORS 16
#define UCUT_MAX_MEMOP_EXTENTS 8
#define UCUT_MAX_MEMOP_OUTPUTS 4
#define UCUT_MEMOP_ENTRY_SYMBOL "ucut_memop_entry"

#ifdef __cplusplus
extern "C" {
#endif

/* A device tensor: leading dimension and batch stride in elements (batch_stride 0 for one batch). */
typedef struct ucut_tensor {
  void* ptr;
  int64_t ld;
  int64_t batch_stride;
} ucut_tensor;

/* A convolution's geometry. Extents in the activation's order [n, d, h, w, c], filter [k, t, r, s, c] and output
 * [n, z, p, q, k]; spatial arrays in [d, h, w] order. Missing spatial dimensions (conv1d, conv2d) have extent 1,
 * padding 0, stride and dilation 1. All tensors are packed channels-last. */
typedef struct ucut_conv_args {
  int32_t spatial_dims;               /* 1, 2 or 3; 0 for a GEMM */
  int32_t n, d, h, w, c;              /* activation X */
  int32_t k, t, r, s;                 /* filter W: k output channels of t x r x s x c */
  int32_t z, p, q;                    /* output Y spatial extents */
  int32_t pad[3], stride[3], dilation[3];
  int32_t groups;                     /* channel groups: 1 dense; G for grouped_conv2d (W has c / G channels, each
                                         output channel k reads input channels of group k / (K / G)); c for
                                         depthwise_conv2d (k = c, W [c, r, s, 1]) */
} ucut_conv_args;

/* A grouped GEMM's problems: `count` independent GEMMs, each with its own extents and operands. Every array
 * has `count` entries and lives in device memory, except problems_host, the host copy of `problems` (the kernel
 * checks each problem against its alignment and sizes its grid from it). Operands are laid out as the spec's
 * A, B, C and D declare them; a problem's leading dimensions are in elements. */
typedef struct ucut_group_args {
  int32_t count;                      /* 0: not a grouped GEMM */
  const int32_t* problems;            /* {m, n, k} per problem */
  const int32_t* problems_host;
  const void* const* a;               /* operand pointers per problem */
  const void* const* b;
  const void* const* c;               /* read only by a `residual` stage; may be NULL otherwise */
  void* const* d;
  const int64_t* lda;                 /* leading dimensions per problem */
  const int64_t* ldb;
  const int64_t* ldc;
  const int64_t* ldd;
} ucut_group_args;

typedef struct ucut_gemm_args {
  int64_t m, n, k, batch;             /* batch = 1 for a plain GEMM; a convolution's implicit GEMM: m = n*z*p*q,
                                         n = k (output channels), k = t*r*s*c */
  ucut_tensor a, b, c, d;             /* c is read only by a `residual` stage */
  ucut_tensor aux[UCUT_MAX_AUX];      /* aux_store outputs */
  const void* vectors[UCUT_MAX_VECTORS]; /* bias / channel_scale vectors (device), one per broadcast stage */
  float scalars[UCUT_MAX_SCALARS];    /* scale / residual beta values */
  const float* scale_a;               /* FP8 dequantization scales (device scalars), when `scaled` */
  const float* scale_b;
  const float* scale_d;               /* FP8 output quantization scale */
  ucut_conv_args conv;                /* convolutions: a = X, b = W, d and c = Y-shaped; ld/batch_stride unused */
  ucut_group_args group;              /* grouped GEMMs: the problems; m, n, k, batch and a, b, c, d unused */
} ucut_gemm_args;

typedef struct ucut_kernel_api {
  int abi_version;
  const char* name;         /* the kernel's name in the spec */
  const char* config_json;  /* canonical configuration and slot table */
  const char* spec_source;  /* the spec it was compiled from */
  /* 0 when the kernel can run these arguments; otherwise a message in err. */
  int (*can_implement)(const ucut_gemm_args* args, char* err, size_t err_len);
  size_t (*workspace_size)(const ucut_gemm_args* args);
  /* Builds launch parameters (TMA descriptors, scheduler state) once; NULL and a message on failure. */
  void* (*prepare)(const ucut_gemm_args* args, void* workspace, void* stream, char* err, size_t err_len);
  /* Enqueues one run on `stream`; 0 on success. */
  int (*launch)(void* prepared, void* stream, char* err, size_t err_len);
  void (*release)(void* prepared);
} ucut_kernel_api;

typedef const ucut_kernel_api* (*ucut_entry_fn)(void);

/* A memory-bound family kernel (`map`, `reduce`, `rownorm`, `scan`: ir/memop.h): its tensors are dense, in the
 * layouts the spec declares, and their extents are the spec's symbols. The caller passes every tensor the spec
 * reads (an input, or the tensor a `slice`/`reverse` view reads, once), in declaration order, its outputs in the
 * order the spec stores them, each run-time scalar in f32 in declaration order, and each extent symbol's value in the
 * order the api lists them (extent_names). The kernel checks alignment and sizes itself and says what is wrong in
 * err. */
typedef struct ucut_memop_args {
  const void* inputs[UCUT_MAX_MEMOP_TENSORS];
  void* outputs[UCUT_MAX_MEMOP_OUTPUTS];
  float scalars[UCUT_MAX_SCALARS];
  int64_t extents[UCUT_MAX_MEMOP_EXTENTS];
} ucut_memop_args;

typedef struct ucut_memop_api {
  int abi_version;
  const char* name;         /* the kernel's name in the spec */
  const char* config_json;  /* ir/memop.h's canonical form */
  const char* spec_source;
  int32_t input_count, output_count, scalar_count, extent_count;
  const char* const* input_names;   /* the caller's names of the inputs, outputs, scalars and extents, in order */
  const char* const* output_names;
  const char* const* scalar_names;
  const char* const* extent_names;
  /* Enqueues one run on `stream` (no workspace: the kernel keeps what it needs); 0 on success. */
  int (*launch)(const ucut_memop_args* args, void* stream, char* err, size_t err_len);
} ucut_memop_api;

typedef const ucut_memop_api* (*ucut_memop_entry_fn)(void);

/* A pipeline (`pipeline NAME : ARCH` with `stage`s): its stages run in order on one stream, each an emitted kernel:
 * a GEMM or convolution stage with its own ucut_gemm_args (stage[s]), a memory-bound family stage (map, reduce,
 * rownorm, scan, window) with its own ucut_memop_args (memop[s]); the other entry of a stage is ignored. The caller
 * fills every stage's arguments as that stage's kernel would take them (a family stage's inputs, scalars and
 * extents in the order of its ucut_memop_api names), except what the pipeline owns: an operand or input that an
 * earlier stage produces (read from that stage's output) is ignored; an output that a later stage reads (a GEMM's d,
 * a family stage's outputs[0]) is written to the caller's buffer when one is given (packed: ld and batch_stride are
 * the pipeline's) and to the workspace when null. An operand declared `from(T)` is
 * passed in T (ld and batch_stride in elements) and converted into the workspace before its stage. config_json
 * (ir/pipeline.h's canonical form) names the links, views, conversions and each stage's config. */
typedef struct ucut_pipeline_args {
  int32_t count;                      /* stages, as the pipeline declares them */
  ucut_gemm_args stage[UCUT_MAX_STAGES];
  ucut_memop_args memop[UCUT_MAX_STAGES];
} ucut_pipeline_args;

typedef struct ucut_pipeline_api {
  int abi_version;
  const char* name;         /* the pipeline's name in the spec */
  const char* config_json;  /* {"pipeline": name, "arch", "stages": [{"name", "config", "inputs"}], "output"} */
  const char* spec_source;
  int32_t stage_count;
  const ucut_kernel_api* const* stages; /* each GEMM or convolution stage's kernel, in order; NULL at a family stage */
  const ucut_memop_api* const* memop_stages; /* each family stage's kernel; NULL at a GEMM or convolution stage */
  int (*can_implement)(const ucut_pipeline_args* args, char* err, size_t err_len);
  /* Intermediates, converted operands and every stage's workspace. */
  size_t (*workspace_size)(const ucut_pipeline_args* args);
  void* (*prepare)(const ucut_pipeline_args* args, void* workspace, void* stream, char* err, size_t err_len);
  /* Enqueues the conversions and every stage on `stream`; 0 on success. */
  int (*launch)(void* prepared, void* stream, char* err, size_t err_len);
  void (*release)(void* prepared);
} ucut_pipeline_api;

typedef const ucut_pipeline_api* (*ucut_pipeline_entry_fn)(void);


#ifdef __cplusplus
}
#endif

#endif /* UCUT_KERNEL_ABI_H */
