// agent/mcp_resources.h — the resources `ucutlass mcp` serves: the DSL guide and grammar, compiled into the
// binary (cmake/embed.cmake), so the installed server needs no source tree.
#pragma once

#include <string_view>
#include <vector>

namespace ucut::agent {

struct Resource {
  std::string_view uri, name, title, description, mime_type;
  std::string_view text;
};

/// Every resource, in a fixed order.
const std::vector<Resource>& resources();

}  // namespace ucut::agent
