// tests/unit/emit/template_paste_test.cpp — emit/template_paste.h: a pasted template is its embedded file
// between two marker lines; collapsing keeps the begin marker, expanding restores the file; an unsound marker
// is an error naming its line; and each template of abi/ and emit/templates/ is compiled on its own
// (tests/compile/).
#include "emit/template_paste.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "../check/golden_cases.h"
#include "support/embedded.h"
#include "support/sha256.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

constexpr const char* kName = "pipeline_runtime.inc";

std::string text_of(const char* name) { return std::string(embedded_file(name).value()); }

/// The marker lines, without their newline.
std::string begin_line(const char* name) {
  return std::string("// ---- begin template ") + name + " (sha256 " + template_hash(text_of(name)) + ") ----";
}

std::string end_line(const char* name) { return std::string("// ---- end template ") + name + " ----"; }

/// A kernel-like file pasting kName inside an indented scope.
std::string pasted() {
  CppWriter w;
  w.line("#include <cstdint>");
  w.open("namespace k");
  paste_template(w, kName);
  w.line("int after;");
  w.close("}  // namespace k");
  return w.str();
}

TEST(TemplatePaste, FramesTheEmbeddedFileAtColumnZero) {
  EXPECT_EQ(template_hash("abc"), sha256_hex("abc").substr(0, 16));
  EXPECT_EQ(pasted(), "#include <cstdint>\nnamespace k {\n" + begin_line(kName) + "\n" + text_of(kName) +
                          end_line(kName) + "\n  int after;\n}  // namespace k\n");
}

TEST(TemplatePaste, CollapseKeepsTheBeginMarkerAndExpandRestoresTheText) {
  TemplateText collapsed = collapse_templates(pasted());
  ASSERT_EQ(collapsed.error, "");
  EXPECT_EQ(collapsed.text,
            "#include <cstdint>\nnamespace k {\n" + begin_line(kName) + "\n  int after;\n}  // namespace k\n");
  TemplateText expanded = expand_templates(collapsed.text);
  ASSERT_EQ(expanded.error, "");
  EXPECT_EQ(expanded.text, pasted());
  // Text without markers passes through both unchanged, a missing final newline included.
  EXPECT_EQ(collapse_templates("a\n// ---- other ----\nb").text, "a\n// ---- other ----\nb");
  EXPECT_EQ(expand_templates("a\nb").text, "a\nb");
}

TEST(TemplatePaste, CollapseNamesTheLineOfAnUnsoundMarker) {
  std::string code = pasted();  // the begin marker is line 3
  auto error_of = [](const std::string& c) { return collapse_templates(c).error; };
  // The text between the markers is not the embedded file: one character changed, or a line dropped.
  std::string changed = code;
  changed.replace(changed.find("struct ucut_stage_desc"), 6, "class ");
  EXPECT_EQ(error_of(changed).rfind("line 3: the text pasted as `pipeline_runtime.inc` (to line ", 0), 0u)
      << error_of(changed);
  std::string dropped = code;
  dropped.erase(dropped.find("struct ucut_stage_desc"), std::string("struct ucut_stage_desc {\n").size());
  EXPECT_NE(error_of(dropped).find("is not that file"), std::string::npos) << error_of(dropped);
  // The marker's hash is not the file's.
  std::string rehashed = code;
  rehashed.replace(rehashed.find(template_hash(text_of(kName))), 16, "0123456789abcdef");
  EXPECT_EQ(error_of(rehashed), "line 3: the marker says sha256 0123456789abcdef, the embedded "
                                "`pipeline_runtime.inc` hashes to " + template_hash(text_of(kName)));
  // No end marker; an end marker with no begin marker; a marker naming no embedded file; a malformed marker.
  std::string unended = code;
  unended.erase(unended.find(end_line(kName)), end_line(kName).size() + 1);
  EXPECT_EQ(error_of(unended), "line 3: `pipeline_runtime.inc` has no end marker `" + end_line(kName) + "`");
  EXPECT_EQ(error_of("x\n" + end_line(kName) + "\n"),
            "line 2: `// ---- end template pipeline_runtime.inc ----` follows no begin marker");
  EXPECT_EQ(error_of("// ---- begin template nothing.inc (sha256 0123456789abcdef) ----\n"),
            "line 1: no embedded template is called `nothing.inc`");
  EXPECT_NE(error_of("// ---- begin template pipeline_runtime.inc ----\n").find("is not a begin marker"),
            std::string::npos);
  EXPECT_EQ(collapse_templates(changed).text, "");  // an error returns no text to compare
}

TEST(TemplatePaste, ExpandRefusesAStaleHashAndAnEndMarker) {
  std::string collapsed = collapse_templates(pasted()).text;
  collapsed.replace(collapsed.find(template_hash(text_of(kName))), 16, "0123456789abcdef");
  EXPECT_EQ(expand_templates(collapsed).error.rfind("line 3: the marker says sha256 0123456789abcdef", 0),
            0u);
  // Expanded text is not collapsed: its end marker is the error (after line 3 and the template's lines).
  std::string text = text_of(kName);
  EXPECT_EQ(expand_templates(pasted()).error, fmt::format("line {}: `{}` in collapsed text",
                                                          4 + std::count(text.begin(), text.end(), '\n'),
                                                          end_line(kName)));
}

// The goldens show a template as one line, so each is compiled once on its own (tests/compile/CMakeLists.txt):
// an error in it names its own line, not each kernel's.
TEST(TemplatePaste, EveryTemplateIsCompiledOnItsOwn) {
  std::string compiled;
  for (const auto& e : fs::directory_iterator(golden::source_dir() / "tests" / "compile"))
    if (e.path().extension() == ".cu") compiled += golden::read_text(e.path());
  int templates = 0;
  for (const char* dir : {"abi", "emit/templates"})
    for (const auto& e : fs::directory_iterator(golden::source_dir() / "src" / dir)) {
      std::string include = "#include \"" + std::string(dir) + "/" + e.path().filename().string() + "\"";
      EXPECT_NE(compiled.find(include), std::string::npos) << "no tests/compile/*.cu has " << include;
      ++templates;
    }
  EXPECT_GE(templates, 7);
}

}  // namespace
}  // namespace ucut
