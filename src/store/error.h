// store/error.h — the one exception the workspace throws: a file that is no workspace, a newer
// schema, a file, disk or process that refused; in plain words naming the file (a wrong statement is a bug:
// InternalError).
#pragma once

#include <stdexcept>

namespace ucut::store {

struct WorkspaceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ucut::store
