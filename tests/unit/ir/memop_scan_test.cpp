// tests/unit/ir/memop_scan_test.cpp — ir/lower_memop.cpp and ir/memop.h for a `scan` and for the layout views: a scan
// lowers its `op`, `of`, `exclusive`, `reverse` and `acc` (defaults implied at the operator), its kernel visits its
// first input; `reverse(P)` on an input records the caller's tensor, which the caller passes once; a map whose output
// is in the other layout than its first input transposes and visits that input. Every new field is semantic (the
// hash) and dumped with its place. Their check rules (C708, C709) are the goldens' (tests/golden/check/).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compiler/pipeline.h"
#include "ir/memop.h"

namespace ucut {
namespace {

MemOpConfig lowered(const std::string& text) {
  SourceFile src("scan.ucut", text);
  Compilation c = compile_spec(src, StopAfter::lower);
  EXPECT_TRUE(c.ok() && c.memop && !c.config) << text;
  return c.memop ? *c.memop : MemOpConfig{};
}

std::string scan_spec(const std::string& args, const std::string& out = "output: bf16[N]") {
  return "kernel k : sm90a\n  scan(" + args + ")\n  >> store(" + out + ")\n";
}

TEST(MemOpScan, ScanLowersItsOpAndDefaults) {
  MemOpConfig m = lowered(scan_spec("input: bf16[N], op = sum"));
  EXPECT_EQ(m.op.value, OpKind::scan);
  EXPECT_TRUE(memory_family(op_family(OpKind::scan)));
  ASSERT_TRUE(m.scan);
  EXPECT_FALSE(m.reduce);
  EXPECT_EQ(m.scan->op.value, ScanOp::sum);
  EXPECT_FALSE(m.scan->of);
  EXPECT_FALSE(m.scan->exclusive.value);
  EXPECT_FALSE(m.scan->reverse.value);
  EXPECT_TRUE(m.scan->exclusive.span.implied);
  EXPECT_EQ(m.scan->acc.value, DType::f32);
  EXPECT_TRUE(m.scan->acc.span.implied);
  EXPECT_EQ(&m.domain(), &m.input());
  EXPECT_EQ(m.tune.vector.value, 8);
}

TEST(MemOpScan, ScanLowersOfFlagsAndAcc) {
  MemOpConfig m = lowered(scan_spec(
      "x_in: f32[B,N], mask: f32[B,N], a: f32, of = x_in * mask, op = prod, exclusive = true, reverse = true, "
      "acc: f32",
      "y: f32[B,N]"));
  EXPECT_EQ(m.scan->op.value, ScanOp::prod);
  ASSERT_TRUE(m.scan->of);
  EXPECT_EQ(m.scan->of->text, "(x_in * mask)");
  EXPECT_TRUE(m.scan->exclusive.value);
  EXPECT_TRUE(m.scan->reverse.value);
  EXPECT_FALSE(m.scan->acc.span.implied);
  EXPECT_EQ(m.inputs.size(), 2u);
  EXPECT_EQ(m.scalars.size(), 1u);
  EXPECT_EQ(scan_op_name(ScanOp::max), "max");
  EXPECT_EQ(find_scan_op("min"), ScanOp::min);
  EXPECT_FALSE(find_scan_op("mean"));
}

TEST(MemOpScan, EveryScanFieldChangesTheHash) {
  std::set<std::string> hashes;
  for (const char* args : {
           "input: f32[N], op = sum",
           "input: f32[N], op = prod",
           "input: f32[N], op = max",
           "input: f32[N], op = sum, exclusive = true",
           "input: f32[N], op = sum, reverse = true",
           "input: f32[N], op = sum, of = input * input",
       })
    hashes.insert(memop_hash(lowered(scan_spec(args, "output: f32[N]"))));
  EXPECT_EQ(hashes.size(), 6u);
  // Written defaults are no change.
  EXPECT_EQ(memop_hash(lowered(scan_spec("input: f32[N], op = sum", "output: f32[N]"))),
            memop_hash(lowered(scan_spec("input: f32[N], op = sum, exclusive = false, reverse = false, acc: f32",
                                         "output: f32[N]"))));
  nlohmann::json j = canonical_memop(lowered(scan_spec("input: f32[N], op = sum", "output: f32[N]")));
  EXPECT_EQ(j["scan"]["op"], "sum");
  EXPECT_EQ(j["scan"]["exclusive"], false);
  EXPECT_FALSE(j.contains("reduce"));
  EXPECT_FALSE(j.contains("reversed"));
}

TEST(MemOpScan, IrDumpSaysWhereTheScanCameFrom) {
  const std::string text = scan_spec("input: f32[N], op = max, reverse = true", "output: f32[N]");
  std::string dump = dump_memop_ir(SourceFile("scan.ucut", text), lowered(text));
  EXPECT_NE(dump.find("  op scan @2:3"), std::string::npos) << dump;
  EXPECT_NE(dump.find("  scan max @2:28"), std::string::npos) << dump;
  EXPECT_NE(dump.find("    reverse true @2:43"), std::string::npos) << dump;
  EXPECT_NE(dump.find("    exclusive false (default @2:3)"), std::string::npos) << dump;
}

TEST(MemOpViews, ReverseRecordsTheCallersTensor) {
  const std::string text =
      "kernel k : sm90a\n  map(r: f32[N] reverse(input))\n  >> store(output: f32[N])\n";
  MemOpConfig m = lowered(text);
  ASSERT_EQ(m.reversed.size(), 1u);
  EXPECT_EQ(m.reversed[0].input, 0u);
  EXPECT_EQ(m.reversed[0].of.value, "input");
  ASSERT_NE(m.reversed_of(0), nullptr);
  EXPECT_EQ(m.caller_name(0), "input");
  ASSERT_EQ(m.caller_inputs().size(), 1u);
  EXPECT_EQ(m.caller_inputs()[0].name, "input");
  EXPECT_TRUE(m.input().dims.size() == 1 && m.input().dims[0].symbol == "N");
  EXPECT_EQ(canonical_memop(m)["reversed"][0]["of"], "input");
  EXPECT_NE(memop_hash(m),
            memop_hash(lowered("kernel k : sm90a\n  map(input: f32[N])\n  >> store(output: f32[N])\n")));
  std::string dump = dump_memop_ir(SourceFile("map.ucut", text), m);
  EXPECT_NE(dump.find("    reversed view of input @2:17"), std::string::npos) << dump;
}

TEST(MemOpViews, AnOutputInTheOtherLayoutTransposes) {
  MemOpConfig t = lowered("kernel k : sm90a\n  map(A: bf16[M,N])\n  >> store(B: bf16[M,N] col)\n");
  EXPECT_TRUE(t.transposes());
  EXPECT_EQ(&t.domain(), &t.input());
  EXPECT_EQ(t.tune.vector.value, 8);
  EXPECT_FALSE(lowered("kernel k : sm90a\n  map(A: bf16[M,N])\n  >> store(B: bf16[M,N])\n").transposes());
  EXPECT_FALSE(lowered("kernel k : sm90a\n  map(A: bf16[M,N] col)\n  >> store(B: bf16[M,N] col)\n").transposes());
  // A narrower output `align` narrows the default vector.
  EXPECT_EQ(lowered("kernel k : sm90a\n  map(A: bf16[M,N])\n  >> store(B: bf16[M,N] col align(2))\n")
                .tune.vector.value,
            2);
}

}  // namespace
}  // namespace ucut
