// tests/unit/emit/spec_compile.h — compiling a spec text in a test: its emitted code (the test fails on any error)
// or the ids of its errors.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "compiler/pipeline.h"

namespace ucut::test {

inline Compilation compile_text(const std::string& text) {
  SourceFile src("spec.ucut", text);
  return compile_spec(src, StopAfter::emit);
}

/// The emitted C++ of a spec that must compile without errors.
inline std::string code_of(const std::string& text) {
  Compilation c = compile_text(text);
  for (const Diagnostic& d : c.diags.diagnostics())
    EXPECT_NE(d.severity, Severity::error) << rule_info(d.rule).code << ": " << d.message << "\n" << text;
  return c.kernel ? c.kernel->code : "";
}

/// The rule ids of a spec's errors, in report order.
inline std::vector<std::string> error_ids(const std::string& text) {
  std::vector<std::string> out;
  Compilation c = compile_text(text);
  for (const Diagnostic& d : c.diags.diagnostics())
    if (d.severity == Severity::error) out.emplace_back(rule_info(d.rule).code);
  return out;
}

inline bool contains(const std::string& hay, std::string_view needle) { return hay.find(needle) != std::string::npos; }

}  // namespace ucut::test
