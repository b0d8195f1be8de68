// support/version.h — the ucutlass version, printed by `--version` and stamped into emitted code; and the
// commit the binaries were built from, printed by `--version` and recorded in the reports of runs (never in
// emitted code).
#pragma once

#include <string_view>

#define UCUTLASS_VERSION "0.1.0"

namespace ucut {

/// The git commit of the sources this build was made from ("1a2b3c4d5e6f", with "-dirty" when tracked files
/// differed from it), or "" when they were not a git checkout (cmake/build_commit.cmake).
std::string_view build_commit();

}  // namespace ucut
