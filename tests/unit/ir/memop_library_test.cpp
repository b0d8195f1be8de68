// tests/unit/ir/memop_library_test.cpp — ir/lower_memop_library.cpp and ir/memop_library.h: a library call
// (sort, topk, fft) lowers to a MemOpConfig whose LibrarySpec holds its keywords (defaults implied at the
// operator) and every output of its store; a sort without a store sorts in place; the library it calls is
// part of the canonical form (so of the hash) and of the IR dump.
#include <gtest/gtest.h>

#include <string>

#include "compiler/pipeline.h"
#include "ir/memop.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("library.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

TEST(MemOpLibrary, SortWithoutAStoreSortsInPlace) {
  MemOpConfig m = lowered("kernel s : sm90a\n  sort(data: f32[N])\n");
  EXPECT_EQ(op_family(m.op.value), OpFamily::library);
  ASSERT_TRUE(m.library);
  EXPECT_TRUE(m.library->in_place);
  EXPECT_EQ(m.library->order.value, SortOrder::ascending);
  EXPECT_TRUE(m.library->order.span.implied);
  ASSERT_EQ(m.outputs().size(), 1u);
  EXPECT_EQ(m.output().name.value, "data");
  EXPECT_EQ(m.domain().name.value, "data");
  EXPECT_EQ(library_name(m), "cub");
}

TEST(MemOpLibrary, SortIntoAStoreAndDescending) {
  MemOpConfig m =
      lowered("kernel s : sm90a\n  sort(data: bf16[N], order = descending)\n  >> store(sorted: bf16[N])\n");
  EXPECT_FALSE(m.library->in_place);
  EXPECT_EQ(m.library->order.value, SortOrder::descending);
  EXPECT_FALSE(m.library->order.span.implied);
  EXPECT_EQ(m.output().name.value, "sorted");
}

TEST(MemOpLibrary, TopkKeepsBothOutputsAndK) {
  MemOpConfig m = lowered(
      "kernel t : sm90a\n  topk(input: f32[N], k = k)\n  >> store(values: f32[k], indices: i32[k])\n");
  ASSERT_TRUE(m.library);
  EXPECT_EQ(m.library->k.value, "k");
  ASSERT_EQ(m.outputs().size(), 2u);
  EXPECT_EQ(m.outputs()[0]->name.value, "values");
  EXPECT_EQ(m.outputs()[1]->name.value, "indices");
  EXPECT_EQ(m.outputs()[1]->dtype.value, DType::i32);
  ASSERT_EQ(m.chain.size(), 1u);
  EXPECT_EQ(m.chain[0].kind, EpiKind::store);
  EXPECT_EQ(m.output().name.value, "values");
  EXPECT_EQ(m.extent_symbols(), (std::vector<std::string>{"k", "N"}));
}

TEST(MemOpLibrary, FftCallsCufftAndItsDirectionIsCanonical) {
  const std::string spec =
      "kernel f : sm90a\n  fft(re: f32[N], im: f32[N]{})\n  >> store(out_re: f32[N], out_im: f32[N])\n";
  auto with = [&](const std::string& extra) {
    std::string s = spec;
    return lowered(s.replace(s.find("{}"), 2, extra));
  };
  MemOpConfig forward = with(""), written = with(", direction = forward"),
              inverse = with(", direction = inverse");
  EXPECT_EQ(library_name(forward), "cufft");
  EXPECT_EQ(forward.library->direction.value, FftDirection::forward);
  EXPECT_EQ(inverse.library->direction.value, FftDirection::inverse);
  EXPECT_EQ(memop_hash(forward), memop_hash(written)) << "a default written out keeps the hash";
  EXPECT_NE(memop_hash(forward), memop_hash(inverse));
  nlohmann::json j = canonical_memop(inverse);
  EXPECT_EQ(j["library"]["library"], "cufft");
  EXPECT_EQ(j["library"]["direction"], "inverse");
  EXPECT_EQ(j["library"]["outputs"].size(), 2u);
}

TEST(MemOpLibrary, TheIrDumpNamesTheLibrary) {
  SourceFile src("t.ucut",
                 "kernel t : sm90a\n  topk(input: f32[N], k = k)\n  >> store(v: f32[k], i: i32[k])\n");
  Compilation c = compile_spec(src, StopAfter::lower);
  ASSERT_TRUE(c.memop);
  std::string ir = dump_memop_ir(src, *c.memop);
  EXPECT_NE(ir.find("  library cub\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    k k @2:27\n"), std::string::npos) << ir;
  EXPECT_NE(ir.find("    output i: i32[k]"), std::string::npos) << ir;
}

}  // namespace
}  // namespace ucut
