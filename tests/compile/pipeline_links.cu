// tests/compile/pipeline_links.cu — a pipeline's workspace plan with family stages (emit/templates/pipeline_api.inc),
// run on the host: a GEMM stage, a `map` reading its output and a `rownorm` reading the map's output through a view
// [M, G, D] (the tables emit/pipeline.cpp writes for such a spec, with stub kernels). The plan must place both
// intermediates in the workspace, bind each linked input to its producer's output, leave the last stage's output the
// caller's, put an intermediate the caller gives a buffer for there instead (ABI v7), and refuse a view whose element
// count differs from its producer's, naming the stage and input. No CUDA call runs, so this needs no GPU. Exit 0 when
// every check holds.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>

#include "abi/kernel_abi.h"

namespace pipeline {
#include "emit/templates/convert_runtime.inc"

#include "emit/templates/pipeline_runtime.inc"

int stub_can_implement(const ucut_gemm_args*, char*, size_t) { return 0; }
size_t stub_workspace(const ucut_gemm_args*) { return 100; }
void* stub_prepare(const ucut_gemm_args*, void*, void*, char*, size_t) { return nullptr; }
int stub_launch(void*, void*, char*, size_t) { return 0; }
void stub_release(void*) {}
const ucut_kernel_api kGemm = {UCUT_ABI_VERSION, "mm", "{}", "", stub_can_implement, stub_workspace,
                               stub_prepare, stub_launch, stub_release};
const ucut_kernel_api* gemm_api(void) { return &kGemm; }
int stub_memop_launch(const ucut_memop_args*, void*, char*, size_t) { return 0; }
const ucut_memop_api kFamily = {UCUT_ABI_VERSION, "family", "{}", "", 1, 1, 0, 2,
                                nullptr, nullptr, nullptr, nullptr, stub_memop_launch};
const ucut_memop_api* family_api(void) { return &kFamily; }

constexpr int kStageCount = 3;
const ucut_stage_desc kStages[] = {
    {gemm_api, nullptr, "mm", 0, {-1, -1}, 1, {ucut_elem_none, ucut_elem_none}, {ucut_elem_f32, ucut_elem_f32},
     ucut_elem_f32, 1, 1, 0, {4, 4, 4}},
    {nullptr, family_api, "act", 0, {-1, -1}, 1, {ucut_elem_none, ucut_elem_none}, {ucut_elem_none, ucut_elem_none},
     ucut_elem_f32, 1, 1, 1, {0, 0, 4}},
    {nullptr, family_api, "gn", 0, {-1, -1}, 0, {ucut_elem_none, ucut_elem_none}, {ucut_elem_none, ucut_elem_none},
     ucut_elem_f32, 1, 1, 1, {0, 0, 4}}};
const char* const kTensorName[] = {"H", "R", "Y"};
constexpr int kLinkCount = 2;
const ucut_family_link kLinks[] = {{1, 0, 0, 0, "input"}, {2, 0, 1, 1, "input"}};
inline int64_t ucut_family_output_elements(int s, const ucut_memop_args& a) {
  switch (s) {
    case 1: return int64_t(a.extents[0]) * a.extents[1];  // R [M, N]
    default: return 0;
  }
}
inline int64_t ucut_link_elements(int l, const ucut_memop_args& a) {
  switch (l) {
    case 0: return int64_t(a.extents[0]) * a.extents[1];                 // act's input [M, N]
    case 1: return int64_t(a.extents[0]) * a.extents[1] * a.extents[2];  // gn's view [M, G, D]
    default: return 0;
  }
}

#include "emit/templates/pipeline_api.inc"
}  // namespace pipeline

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (ok) return;
  std::printf("FAILED: %s\n", what);
  ++failures;
}

}  // namespace

int main() {
  using namespace pipeline;
  ucut_pipeline_args p{};
  p.count = 3;
  p.stage[0].m = 64, p.stage[0].n = 96, p.stage[0].k = 32, p.stage[0].batch = 1;
  p.memop[1].extents[0] = 64, p.memop[1].extents[1] = 96;                                // act: M, N
  p.memop[2].extents[0] = 64, p.memop[2].extents[1] = 4, p.memop[2].extents[2] = 24;  // gn: M, G, D
  float y = 0;
  p.memop[2].outputs[0] = &y;
  char* base = reinterpret_cast<char*>(4096);
  ucut_pipe_layout L;
  char err[512] = {0};
  expect(ucut_pipe_plan(&p, base, &L, err, sizeof err) == 0, "the plan accepts matching extents");
  const int64_t bytes = 64 * 96 * 4;  // each intermediate: M x N f32, a multiple of 256
  expect(L.args[0].d.ptr == base, "H is the workspace's first buffer");
  expect(L.memop[1].inputs[0] == base, "act reads H");
  expect(L.memop[1].outputs[0] == base + bytes, "R follows H");
  expect(L.memop[2].inputs[0] == base + bytes, "gn's view reads R");
  expect(L.memop[2].outputs[0] == &y, "the last stage's output is the caller's");
  expect(L.total == 2 * bytes + 256, "two intermediates and mm's own workspace");
  expect(workspace_size(&p) == size_t(2 * bytes + 256), "workspace_size says the plan's total");
  expect(can_implement(&p, err, sizeof err) == 0, "can_implement accepts matching extents");

  // ABI v7: buffers the caller gives for intermediates (the harness reads them to verify stage by stage) are written
  // and read in place of the workspace's, and the workspace shrinks by them.
  {
    ucut_pipeline_args given = p;
    char* h = reinterpret_cast<char*>(1 << 20);
    char* r = reinterpret_cast<char*>(2 << 20);
    given.stage[0].d.ptr = h;
    given.memop[1].outputs[0] = r;
    ucut_pipe_layout G;
    expect(ucut_pipe_plan(&given, base, &G, err, sizeof err) == 0, "the plan accepts the caller's intermediates");
    expect(G.args[0].d.ptr == h && G.args[0].d.ld == 96, "H is the caller's buffer, packed");
    expect(G.memop[1].inputs[0] == h, "act reads the caller's H");
    expect(G.memop[1].outputs[0] == r, "act writes the caller's R");
    expect(G.memop[2].inputs[0] == r, "gn reads the caller's R");
    expect(G.intermediate[0] == -1 && G.intermediate[1] == -1, "neither is placed in the workspace");
    expect(G.total == 256 && workspace_size(&given) == 256, "the workspace holds mm's own only");
    given.memop[1].outputs[0] = nullptr;  // one given, one not
    expect(ucut_pipe_plan(&given, base, &G, err, sizeof err) == 0 && G.memop[1].outputs[0] == base &&
               G.memop[2].inputs[0] == base && G.total == bytes + 256,
           "an intermediate left null goes to the workspace, alone");
  }

  p.memop[2].extents[2] = 20;  // G x D = 80, not N = 96
  expect(can_implement(&p, err, sizeof err) != 0, "can_implement refuses a view of other element count");
  expect(std::strstr(err, "stage gn reads R (6144 elements from stage act) as its input `input`, which its extents "
                          "(a view) make 5120 elements") != nullptr,
         "the refusal names the stage, the intermediate and both counts");
  if (failures) std::printf("last message: %s\n", err);
  else std::printf("ok\n");
  return failures ? 1 : 0;
}
