// tests/fuzz/fuzz_spec.cpp — libFuzzer target over the whole front end and emitter: lexer, parser, lowering,
// check and (for accepted specs) C++ emission. Any crash, hang, sanitizer report or internal error is a bug;
// every rejection must be a diagnostic with a valid location.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "compiler/pipeline.h"
#include "support/diag_render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ucut::SourceFile src("fuzz.ucut", std::string(reinterpret_cast<const char*>(data), size));
  ucut::Compilation c = ucut::compile_spec(src);
  for (const ucut::Diagnostic& d : c.diags.diagnostics()) {
    if (d.primary.begin > src.text().size() || d.primary.end > src.text().size() || d.primary.end < d.primary.begin)
      std::abort();  // a diagnostic pointing outside the spec
    (void)ucut::render_text(src, d);
    (void)ucut::to_json(src, d).dump();
  }
  if (c.ok() && (!c.kernel || c.kernel->code.empty())) std::abort();  // accepted but nothing emitted
  return 0;
}
