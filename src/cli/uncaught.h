// cli/uncaught.h — what `ucutlass` says and exits with when a subcommand lets an exception out (main.cpp).
#pragma once

#include <exception>
#include <ostream>

namespace ucut::cli {

/// Prints one message for `error` to `err` and returns the exit code (cli/exit_codes.h). An InternalError, or
/// any exception that no one expected, is a bug: kInternal, "please report it". A workspace that cannot be
/// used, a refusal of the file system or the OS, and running out of memory are not: kIoError, "error: ...".
int report_uncaught(std::exception_ptr error, std::ostream& err);

}  // namespace ucut::cli
