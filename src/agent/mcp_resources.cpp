// agent/mcp_resources.cpp — see mcp_resources.h.
#include "agent/mcp_resources.h"

#include "support/embedded.h"
#include "support/error.h"

namespace ucut::agent {

const std::vector<Resource>& resources() {
  static const std::vector<Resource> list = [] {
    struct Row {
      std::string_view file, uri, title, description, mime_type;
    };
    static constexpr Row kRows[] = {
        {"dsl-guide.md", "ucutlass://docs/dsl-guide.md", "The μCUTLASS DSL guide",
         "How to write a .ucut kernel spec: kernels, epilogues, pipelines, schedules, with examples",
         "text/markdown"},
        {"grammar.ebnf", "ucutlass://docs/grammar.ebnf", "The .ucut grammar (EBNF)", "The DSL's full grammar",
         "text/plain"},
    };
    std::vector<Resource> l;
    for (const Row& r : kRows) {
      auto text = embedded_file(r.file);
      UC_ASSERT(text) << "docs file not embedded (CMakeLists.txt UCUT_EMBED_FILES): " << r.file;
      l.push_back({r.uri, r.file, r.title, r.description, r.mime_type, *text});
    }
    return l;
  }();
  return list;
}

}  // namespace ucut::agent
