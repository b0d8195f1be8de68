// cli/invocation.h — the command line this process was started with, as a person would type it again: what
// reports record as "the command that wrote it", every option included (a hand-built string forgets some).
#pragma once

#include <string>

namespace ucut::cli {

/// Called once by main with its arguments.
void record_invocation(int argc, char** argv);

/// "ucutlass <arg> <arg> ...", each argument shell-quoted where it needs it; "ucutlass" before main recorded
/// one.
const std::string& invocation();

}  // namespace ucut::cli
