// tests/unit/llm/prompt_pack_test.cpp — the prompt packs (llm/prompt_pack.h): every embedded pack loads
// and renders with its slots filled; rendering refuses a missing or unused value; the hash follows every
// byte.
#include "llm/prompt_pack.h"

#include <gtest/gtest.h>

#include <regex>

#include "../test_paths.h"
#include "llm/schema_check.h"
#include "support/files.h"

namespace ucut::llm {
namespace {

/// A pack held in memory: path → text.
PromptFileReader reader(std::map<std::string, std::string> files) {
  return [files = std::move(files)](std::string_view path) -> std::optional<std::string> {
    auto f = files.find(std::string(path));
    return f == files.end() ? std::nullopt : std::optional<std::string>(f->second);
  };
}

std::map<std::string, std::string> tiny_pack() {
  return {{"prompts/tiny/pack.toml",
           "name = \"tiny\"\nversion = 2\ntemplates = [\"a.md\"]\nschemas = [\"s.json\"]\n[include]\nguide = "
           "\"docs/g.md\"\n"},
          {"prompts/tiny/a.md",
           "<!-- a.md: for people -->\nHello {{who}}, read:\n{{include guide}}\nBye {{who}}.\n"},
          {"prompts/tiny/s.json", "{\"type\": \"object\", \"required\": [\"x\"]}"},
          {"docs/g.md", "THE GUIDE {{not_a_slot}}"}};
}

TEST(PromptPack, RendersSlotsAndIncludesAndDropsTheCommentLine) {
  PromptPack p = load_prompt_pack("tiny", reader(tiny_pack()));
  EXPECT_EQ(p.name, "tiny");
  EXPECT_EQ(p.version, 2);
  EXPECT_EQ(p.slots("a.md"), std::vector<std::string>{"who"});
  // The included text is inserted as is: its braces are not a slot of the template.
  EXPECT_EQ(p.render("a.md", {{"who", "{{model}}"}}),
            "Hello {{model}}, read:\nTHE GUIDE {{not_a_slot}}\nBye {{model}}.\n");
  EXPECT_EQ(p.schemas.at("s.json")["required"][0], "x");
  EXPECT_EQ(p.identity()["hash"], p.hash);
}

TEST(PromptPack, RefusesAMissingValueAnUnusedOneAndAnUnknownTemplate) {
  PromptPack p = load_prompt_pack("tiny", reader(tiny_pack()));
  EXPECT_THROW(
      {
        try {
          p.render("a.md", {});
        } catch (const PromptError& e) {
          EXPECT_NE(std::string(e.what()).find("no value for the slot `{{who}}`"), std::string::npos)
              << e.what();
          throw;
        }
      },
      PromptError);
  EXPECT_THROW(
      {
        try {
          p.render("a.md", {{"who", "x"}, {"whom", "y"}});
        } catch (const PromptError& e) {
          EXPECT_NE(std::string(e.what()).find("a value for `whom`"), std::string::npos) << e.what();
          throw;
        }
      },
      PromptError);
  EXPECT_THROW(p.render("b.md", {}), PromptError);
  EXPECT_THROW(p.slots("b.md"), PromptError);
}

TEST(PromptPack, TheHashFollowsEveryFileTheIncludesToo) {
  const std::string base = load_prompt_pack("tiny", reader(tiny_pack())).hash;
  EXPECT_TRUE(std::regex_match(base, std::regex("[0-9a-f]{64}")));
  EXPECT_EQ(load_prompt_pack("tiny", reader(tiny_pack())).hash, base);  // deterministic
  for (const auto& [path, text] : tiny_pack()) {
    auto changed = tiny_pack();
    changed[path] = text + " ";
    EXPECT_NE(load_prompt_pack("tiny", reader(changed)).hash, base) << path;
  }
}

TEST(PromptPack, ABrokenPackIsAnErrorNamingWhatIsWrong) {
  auto expect_error = [](std::map<std::string, std::string> files, const std::string& words) {
    try {
      load_prompt_pack("tiny", reader(std::move(files)));
      ADD_FAILURE() << "no error; expected: " << words;
    } catch (const PromptError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  auto files = tiny_pack();
  files.erase("docs/g.md");
  expect_error(files, "docs/g.md is missing");
  files = tiny_pack();
  files["prompts/tiny/s.json"] = "{";
  expect_error(files, "s.json is not JSON");
  files = tiny_pack();
  files["prompts/tiny/pack.toml"] = "name = \"other\"\nversion = 1\ntemplates = [\"a.md\"]\n";
  expect_error(files, "must say name = \"tiny\"");
  files["prompts/tiny/pack.toml"] = "name = \"tiny\"\nversion = 1\n";
  expect_error(files, "lists no templates");
  files["prompts/tiny/pack.toml"] = "name = [";
  expect_error(files, "is not TOML");
  expect_error({}, "prompts/tiny/pack.toml is missing");
}

TEST(PromptPack, EveryEmbeddedPackLoadsAndEveryTemplateRendersWhole) {
  const std::vector<std::string> expected = {"cudamaster", "detector", "dsl", "mantis", "profile", "sol"};
  ASSERT_EQ(prompt_pack_names(), expected);
  for (const std::string& name : expected) {
    PromptPack p = load_prompt_pack(name);
    EXPECT_FALSE(p.template_names.empty()) << name;
    for (const std::string& t : p.template_names) {
      std::map<std::string, std::string> values;
      for (const std::string& slot : p.slots(t)) values[slot] = "<" + slot + ">";
      std::string text = p.render(t, values);
      EXPECT_EQ(text.find("{{"), std::string::npos) << name << "/" << t << " left a slot unfilled";
      EXPECT_EQ(text.find("<!--"), std::string::npos) << name << "/" << t << " sends its comment line";
      EXPECT_GT(text.size(), 100u) << name << "/" << t;
    }
    for (const auto& [file, schema] : p.schemas) {
      EXPECT_EQ(schema["type"], "object") << name << "/" << file;
      EXPECT_TRUE(schema.contains("required")) << name << "/" << file;
    }
  }
}

TEST(PromptPack, TheEmbeddedCopyIsTheRepositorysFiles) {
  PromptPack dsl = load_prompt_pack("dsl");
  EXPECT_EQ(dsl.includes.at("dsl_guide"), *read_file(ucut::test_paths::source_dir() + "/docs/dsl-guide.md"));
  EXPECT_EQ(dsl.templates.at("system.md"),
            *read_file(ucut::test_paths::source_dir() + "/prompts/dsl/system.md"));
  // The orchestrated MANTIS form has one template and one answer schema per phase.
  PromptPack mantis = load_prompt_pack("mantis");
  for (const char* phase : {"measure", "analyze", "nominate", "triage", "implement", "summarize"}) {
    EXPECT_TRUE(mantis.templates.count(std::string(phase) + ".md")) << phase;
    EXPECT_TRUE(mantis.schemas.count(std::string("schemas/") + phase + ".schema.json")) << phase;
  }
}

TEST(PromptPack, TheAnswerSchemasAcceptWhatThePromptsAskForAndNameWhatIsWrong) {
  using nlohmann::json;
  PromptPack mantis = load_prompt_pack("mantis");
  auto schema = [&](const std::string& phase) { return mantis.schemas.at("schemas/" + phase + ".schema.json"); };
  // The answers exactly as each phase's template spells them.
  EXPECT_EQ(schema_violation(schema("measure"), {{"profile", true}, {"reason", "the best changed"}}), std::nullopt);
  EXPECT_EQ(schema_violation(schema("analyze"), {{"bottleneck", "memory_bandwidth"},
                                                 {"evidence", {"DRAM throughput 91%"}},
                                                 {"headroom", "g = 1.3: little"}}),
            std::nullopt);
  json hypothesis = {{"change", "tile 128x256"}, {"causal_link", "fewer waves"}, {"predicted_speedup", 1.3},
                     {"risk_impl", 1.2}, {"risk_perf", 1.5}};
  EXPECT_EQ(schema_violation(schema("nominate"), {{"hypotheses", {hypothesis}}}), std::nullopt);
  EXPECT_EQ(schema_violation(schema("triage"), {{"keep", {1, 0}}, {"override_reason", ""}}), std::nullopt);
  EXPECT_EQ(schema_violation(schema("implement"), {{"specs", {"kernel k : sm90a ..."}}, {"notes", ""}}), std::nullopt);
  EXPECT_EQ(schema_violation(schema("summarize"), {{"lessons", {{{"hypothesis", 0}, {"text", "as predicted"}}}}}),
            std::nullopt);
  // What a model gets wrong, named so that a repair prompt can quote it.
  EXPECT_EQ(schema_violation(schema("analyze"), {{"bottleneck", "cache"}, {"evidence", {"x"}}, {"headroom", "y"}}),
            "`bottleneck` must be one of [\"compute\",\"memory_bandwidth\",\"memory_latency\"]");
  hypothesis["predicted_speedup"] = 0.8;
  EXPECT_EQ(schema_violation(schema("nominate"), {{"hypotheses", {hypothesis}}}),
            "`hypotheses[0].predicted_speedup` must be at least 1");
  EXPECT_EQ(schema_violation(schema("implement"), {{"specs", json::array()}, {"notes", ""}}),
            "`specs` must have at least 1 item");
  PromptPack detector = load_prompt_pack("detector");
  const json& review = detector.schemas.at("schemas/review.schema.json");
  EXPECT_EQ(schema_violation(review, {{"verdict", "clean"}, {"findings", json::array()}}), std::nullopt);
  EXPECT_EQ(schema_violation(review, {{"verdict", "shortcut"},
                                      {"findings", {{{"kind", "cached_result"}, {"evidence", "static cache"}}}}}),
            std::nullopt);
  EXPECT_EQ(schema_violation(review, {{"verdict", "shortcut"}, {"findings", {{{"kind", "cached_result"}}}}}),
            "`findings[0]` lacks the required `evidence`");
}

}  // namespace
}  // namespace ucut::llm
