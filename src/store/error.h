// store/error.h — the one exception the workspace throws: a bad file, a newer schema, a failed SQL statement.
#pragma once

#include <stdexcept>

namespace ucut::store {

struct WorkspaceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ucut::store
