// cli/exit_codes.h — the exit codes every subcommand shares (README "What it does" lists them for users).
#pragma once

namespace ucut::cli {

/// What `ucutlass` exits with. 1-5 are the user's or the machine's, and the command says what happened;
/// kInternal (sysexits' EX_SOFTWARE) is a bug in ucutlass (support/error.h), returned by cli/uncaught.cpp.
enum Exit : int {
  kOk = 0,
  kSpecErrors = 1,  // the spec has errors (diagnostics printed), or does not compute the problem
  kUsage = 2,       // bad arguments or input: an unknown command, option or name; an unusable problem file
  kIoError = 3,     // a file, folder or workspace cannot be read or written; the system refused (no memory)
  kNeedsGpu = 4,    // the command needs a GPU (or ncu's counters) that this machine lacks
  kRunFailed = 5,   // a build, run or verification failed
  kInternal = 70,   // an internal error: a bug in ucutlass, reported with "please report it"
};

}  // namespace ucut::cli
