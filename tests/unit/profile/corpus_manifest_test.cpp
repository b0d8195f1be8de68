// tests/unit/profile/corpus_manifest_test.cpp — workflow/profile_corpus.h's manifest: pairs with a spec, pairs whose
// spec is the suite problem's generated seed (optionally at a relaxed tolerance), the errors that name the field,
// and the shipped corpus (bench/profile/corpus.toml): every pair's problem lowers and every seed pair gets a spec.
#include <gtest/gtest.h>

#include <fstream>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "engine/search/seed_spec.h"
#include "suite/problem_file.h"
#include "workflow/profile_corpus.h"

namespace ucut {
namespace {

std::optional<CorpusManifest> load(const std::string& text, std::string* error) {
  ucut::testing::TempDir dir{"ucut-corpus"};
  std::string path = dir.file("corpus.toml");
  std::ofstream(path) << text;
  return load_corpus_manifest(path, error);
}

TEST(CorpusManifest, PairsWithASpecOrTheGeneratedSeed) {
  std::string error;
  auto m = load("name = \"c\"\n[[pair]]\nspec = \"a.ucut\"\nproblem = \"p.toml\"\n"
                "[[pair]]\nproblem = \"q.toml\"\ntolerance = 1e-2\n",
                &error);
  ASSERT_TRUE(m) << error;
  ASSERT_EQ(m->pairs.size(), 2u);
  EXPECT_NE(m->pairs[0].spec.find("a.ucut"), std::string::npos);
  EXPECT_FALSE(m->pairs[0].tolerance);
  EXPECT_EQ(m->pairs[1].spec, "");  // the generated seed
  EXPECT_EQ(m->pairs[1].tolerance, 1e-2);
}

TEST(CorpusManifest, BadFieldsAreNamed) {
  std::string error;
  EXPECT_FALSE(load("[[pair]]\nspec = \"a.ucut\"\n", &error));
  EXPECT_NE(error.find("`problem`"), std::string::npos) << error;
  EXPECT_FALSE(load("[[pair]]\nspec = \"\"\nproblem = \"p.toml\"\n", &error));
  EXPECT_NE(error.find("`spec`"), std::string::npos) << error;
  EXPECT_FALSE(load("[[pair]]\nproblem = \"p.toml\"\ntolerance = -1.0\n", &error));
  EXPECT_NE(error.find("`tolerance`"), std::string::npos) << error;
}

TEST(CorpusManifest, TheShippedCorpusLowersAndEverySeedPairGetsASpec) {
  std::string error;
  auto m = load_corpus_manifest(ucut::test_paths::source_dir() + "/bench/profile/corpus.toml", &error);
  ASSERT_TRUE(m) << error;
  EXPECT_GE(m->pairs.size(), 20u);
  for (const CorpusPair& p : m->pairs) {
    auto lowered = lower_problem_file(p.problem, p.tolerance);
    ASSERT_TRUE(std::holds_alternative<LoweredProblem>(lowered)) << p.problem << ": " << std::get<std::string>(lowered);
    if (!p.spec.empty()) {
      EXPECT_TRUE(std::ifstream(p.spec).good()) << p.spec;
      continue;
    }
    const LoweredProblem& low = std::get<LoweredProblem>(lowered);
    auto seed = search::seed_spec(low.checked, low.problem);
    EXPECT_TRUE(std::holds_alternative<search::SeedSpec>(seed)) << p.problem << ": " << std::get<std::string>(seed);
  }
}

}  // namespace
}  // namespace ucut
