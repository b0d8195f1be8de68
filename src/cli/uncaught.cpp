// cli/uncaught.cpp — see uncaught.h: the exceptions that reach main, sorted into bugs and refusals.
#include "cli/uncaught.h"

#include <new>
#include <system_error>

#include "cli/exit_codes.h"
#include "store/error.h"
#include "support/error.h"

namespace ucut::cli {
namespace {

constexpr const char* kPleaseReport =
    "This is a bug in ucutlass; please report it (with the command and input).\n";

int not_a_bug(std::ostream& err, const char* what) {
  err << "ucutlass: error: " << what << "\n";
  return kIoError;
}

}  // namespace

int report_uncaught(std::exception_ptr error, std::ostream& err) {
  try {
    std::rethrow_exception(error);
  } catch (const InternalError& e) {
    err << "ucutlass: " << e.what() << "\n" << kPleaseReport;
  } catch (const store::WorkspaceError& e) {  // not a workspace, a newer schema, a full or locked disk
    return not_a_bug(err, e.what());
  } catch (const std::system_error& e) {  // std::filesystem and iostreams: the OS refused
    return not_a_bug(err, e.what());
  } catch (const std::bad_alloc&) {
    return not_a_bug(err, "out of memory");
  } catch (const std::exception& e) {  // that no subcommand expected: the missing handler is a bug too
    err << "ucutlass: internal error: " << e.what() << "\n" << kPleaseReport;
  } catch (...) {
    err << "ucutlass: internal error: an exception that is not a std::exception\n" << kPleaseReport;
  }
  return kInternal;
}

}  // namespace ucut::cli
