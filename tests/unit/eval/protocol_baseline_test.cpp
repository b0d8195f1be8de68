// tests/unit/eval/protocol_baseline_test.cpp — eval/protocol.h: a shape's vendor baseline names its library
// (cuBLAS for GEMMs, cuDNN for convolutions), and a convolution's result keeps it through JSON.
#include <gtest/gtest.h>

#include "eval/protocol.h"

namespace ucut {
namespace {

TEST(ProtocolBaseline, LibraryAndDescriptionSurviveJson) {
  ConvShape c;
  c.dims = 2;
  c.n = 2, c.c = 16, c.k = 32;
  c.in = {1, 8, 8};
  c.filter = {1, 3, 3};
  c.pad = {0, 1, 1};
  ShapeResult r;
  r.shape = conv_gemm_shape(c, "conv");
  r.reference_kind = ReferenceKind::direct_f64;
  r.baseline_library = VendorLibrary::cudnn;
  r.cublas_kernel = "cuDNN 9.14 conv2d fprop NHWC f32 tf32 IMPLICIT_PRECOMP_GEMM, ws 12 MiB; epilogue not fused";
  ShapeResult back = nlohmann::json::parse(nlohmann::json(r).dump()).get<ShapeResult>();
  EXPECT_EQ(back.baseline_library, VendorLibrary::cudnn);
  EXPECT_EQ(back.reference_kind, ReferenceKind::direct_f64);
  EXPECT_EQ(back.cublas_kernel, r.cublas_kernel);
  EXPECT_TRUE(back.shape.is_conv());
  EXPECT_EQ(back.shape.m, 2 * 8 * 8);
}

TEST(ProtocolBaseline, OlderResponsesReadWithoutALibrary) {
  nlohmann::json j = ShapeResult{};
  j.erase("baseline_library");
  EXPECT_EQ(j.get<ShapeResult>().baseline_library, VendorLibrary::none);
}

}  // namespace
}  // namespace ucut
