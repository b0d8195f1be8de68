// mskb/launcher_build.h: the call adapter, where launcher sources are found, and the protocol's JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mskb/launcher_build.h"
#include "mskb/protocol.h"

namespace ucut::mskb {
namespace {

namespace fs = std::filesystem;

TEST(MskbAdapter, PassesPointersThemselvesAndScalarsByValue) {
  Signature sig = parse_signature("void elu_bf16( __nv_bfloat16* out, const __nv_bfloat16* input, const int N, float alpha = 1.0)");
  std::string a = call_adapter(sig, "elu_bf16_optimized");
  // No declaration of the launcher (it would clash with one declared differently): an interface check instead.
  std::istringstream lines(a);
  for (std::string line; std::getline(lines, line);)
    EXPECT_FALSE(line.starts_with("void elu_bf16_optimized(") || line.starts_with("extern \"C\" void elu_bf16_optimized("))
        << line;
  EXPECT_NE(a.find("launcher<__nv_bfloat16*, __nv_bfloat16*, int, float>"), std::string::npos) << a;
  EXPECT_NE(a.find("[mskb-launcher-signature] the launcher must be void elu_bf16_optimized(__nv_bfloat16*, const "
                   "__nv_bfloat16*, int, float)"),
            std::string::npos)
      << a;
  EXPECT_NE(a.find("[mskb-launcher-missing]"), std::string::npos) << a;
  EXPECT_LT(a.find("check_launcher("), a.find(kCallSymbol)) << "the check comes before the adapter's call";
  EXPECT_NE(a.find("static_cast<__nv_bfloat16*>(args[0])"), std::string::npos) << a;
  EXPECT_NE(a.find("static_cast<const __nv_bfloat16*>(args[1])"), std::string::npos) << a;
  EXPECT_NE(a.find("*static_cast<const int*>(args[2])"), std::string::npos) << a;
  EXPECT_NE(a.find("*static_cast<const float*>(args[3])"), std::string::npos) << a;
  EXPECT_NE(a.find(std::string("void ") + kCallSymbol + "(void* const* args)"), std::string::npos);
}

TEST(MskbSources, NaiveVendorAndACandidateInEitherLayout) {
  const Task& relu = *find_task("RELU");
  fs::path impl = fs::temp_directory_path() / "ucut_mskb_sources_test";
  fs::remove_all(impl);
  fs::create_directories(impl / "bf16");
  std::ofstream(impl / "RELU.cu") << "";
  std::ofstream(impl / "bf16" / "RELU_bf16.cu") << "";
  auto fp32 = launcher_sources(relu, Precision::fp32, "suites/mskb", impl.string());
  ASSERT_EQ(fp32.size(), 3u);
  EXPECT_EQ(fp32[0].role, Role::naive);
  EXPECT_EQ(fp32[0].path, "suites/mskb/naive/fp32/RELU.cu");
  EXPECT_EQ(fp32[1].symbol, "RELU_vendor");
  EXPECT_EQ(fp32[2].symbol, "RELU_optimized");
  auto bf16 = launcher_sources(relu, Precision::bf16, "suites/mskb", impl.string());
  ASSERT_EQ(bf16.size(), 3u);
  EXPECT_EQ(bf16[2].path, (impl / "bf16" / "RELU_bf16.cu").string());
  EXPECT_EQ(bf16[2].symbol, "RELU_bf16_optimized");
  EXPECT_EQ(launcher_sources(*find_task("gelu"), Precision::fp32, "suites/mskb", "").size(), 1u);  // no vendor
  fs::remove_all(impl);
}

TEST(MskbProtocol, RequestAndResultsRoundTripThroughJson) {
  MskbRequest q;
  q.task = "RELU";
  q.precision = Precision::bf16;
  q.impls = {{Role::naive, "/x/naive.so"}};
  q.items = {{3, 0}};
  q.profile_only = true;
  MskbRequest back = nlohmann::json(q).get<MskbRequest>();
  EXPECT_EQ(back.precision, Precision::bf16);
  EXPECT_TRUE(back.profile_only);
  EXPECT_FALSE(nlohmann::json::parse(R"({"task": "RELU"})").get<MskbRequest>().profile_only);
  EXPECT_EQ(back.items[0].case_index, 3);
  EXPECT_EQ(back.impls[0].library, "/x/naive.so");
  ItemResult r;
  r.status = Status::crashed;
  r.outputs = {{.name = "out", .checked = 4, .pass = true}};
  r.library_kernels = {"cuBLAS: nvjet_sm90_tst_128x256_64x4"};
  r.l2_persistence = "an access-policy window was set on the launch stream";
  ItemResult r2 = nlohmann::json(r).get<ItemResult>();
  EXPECT_EQ(r2.status, Status::crashed);
  EXPECT_EQ(r2.library_kernels, r.library_kernels);
  EXPECT_EQ(r2.l2_persistence, r.l2_persistence);
  EXPECT_EQ(r2.outputs[0].checked, 4);
}

}  // namespace
}  // namespace ucut::mskb
