// support/error.h — user error vs internal bug (Halide's user_assert / internal_assert): InternalError, and
// UC_ASSERT and UC_UNREACHABLE, which throw it where an invariant of ucutlass itself breaks. Bottom floor.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

// Which one to use when (STYLE.md §6.2, "User error vs bug"):
// - A mistake of the user's (a spec that breaks a rule; a bad problem, workspace or report file; no GPU, no
//   nvcc) is not a bug. In the compiler it is a Diagnostic with its rule id (support/diag.h, rules.def);
//   elsewhere a clear message, an error value the caller prints, or an exception its command turns into one
//   (store::WorkspaceError). The command exits with its own code (cli/exit_codes.h). It never reaches
//   UC_ASSERT, and a test of an invalid spec asserts a rule id, never an internal error.
// - A broken invariant of ucutlass itself is a bug: what `check` or an earlier stage guarantees (every
//   epilogue stage with a runtime parameter has an ABI slot; the sm90 backend never sees `multistage`), or a
//   case that an exhaustive switch cannot reach. Say so with
//       UC_ASSERT(cond) << "what broke " << value;     or     UC_UNREACHABLE() << "what came " << value;
//   never with a dummy value (a `return "";` emits wrong C++ without a word) and never with assert(), which
//   NDEBUG (every build here) compiles out. Both macros work in every build, and build their message only
//   when they fail; `ucutlass` then exits 70, saying "this is a bug in ucutlass; please report it".

namespace ucut {

/// A broken invariant of ucutlass: a bug, never a user error. what() reads "internal error at
/// emit/sm90/gemm.cpp:45: unreachable: ..." or "internal error at FILE:LINE: `cond` does not hold: ...".
class InternalError : public std::logic_error {
 public:
  /// `file` as __FILE__ gives it (shortened to its path under src/), `condition` empty for UC_UNREACHABLE.
  InternalError(const std::string& file, int line, std::string condition, std::string message);

  /// The source file, relative to src/ ("emit/sm90/gemm.cpp"), and line of the UC_ASSERT or UC_UNREACHABLE.
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  /// The condition that did not hold, as written; empty for UC_UNREACHABLE.
  const std::string& condition() const { return condition_; }
  /// What was streamed into the macro.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string condition_;
  std::string message_;
};

namespace detail {

/// Collects what is streamed into a failed UC_ASSERT or a reached UC_UNREACHABLE, and throws the
/// InternalError when the statement ends (its destructor).
class InternalErrorReport {
 public:
  InternalErrorReport(const char* file, int line, const char* condition)
      : file_(file), line_(line), condition_(condition) {}
  InternalErrorReport(const InternalErrorReport&) = delete;
  InternalErrorReport& operator=(const InternalErrorReport&) = delete;
  [[noreturn]] ~InternalErrorReport() noexcept(false);

  template <class T>
  InternalErrorReport& operator<<(const T& value) {
    message_ << value;
    return *this;
  }

 private:
  const char* file_;
  int line_;
  const char* condition_;
  std::ostringstream message_;
};

/// Makes `report << ...` a void expression, so that UC_ASSERT can be the other branch of `?:` (glog's
/// Voidify): `&` binds more loosely than `<<` and more tightly than `?:`.
struct Voidify {
  void operator&(const InternalErrorReport&) const {}
};

}  // namespace detail
}  // namespace ucut

/// Throws ucut::InternalError (with this file and line, the condition and the streamed message) unless `cond`
/// holds: `UC_ASSERT(slot < slots.size()) << "stage " << stage << " has no ABI slot";`. Nothing after `<<` is
/// evaluated while `cond` holds.
#define UC_ASSERT(cond) \
  (cond) ? (void)0      \
         : ::ucut::detail::Voidify() & ::ucut::detail::InternalErrorReport(__FILE__, __LINE__, #cond)

/// Throws ucut::InternalError: this point cannot be reached (after a switch over every enumerator, or for a
/// value that check excludes): `UC_UNREACHABLE() << "KernelSchedule " << int(s);`. The compiler knows that
/// nothing follows, so a function needs no dummy return after it.
#define UC_UNREACHABLE() \
  ::ucut::detail::Voidify() & ::ucut::detail::InternalErrorReport(__FILE__, __LINE__, nullptr)
