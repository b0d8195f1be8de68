// support/error.cpp — see error.h: the InternalError's text, thrown where a UC_ASSERT statement ends.
#include "support/error.h"

#include <string_view>

namespace ucut {
namespace {

/// __FILE__ under src/ ("emit/sm90/gemm.cpp"): where the checkout lies says nothing to a bug report.
std::string under_src(std::string_view file) {
  size_t at = file.rfind("/src/");
  if (at != std::string_view::npos) return std::string(file.substr(at + 5));
  size_t slash = file.rfind('/');
  return std::string(slash == std::string_view::npos ? file : file.substr(slash + 1));
}

std::string describe(const std::string& file, int line, const std::string& condition,
                     const std::string& message) {
  std::string text = "internal error at " + file + ":" + std::to_string(line) + ": ";
  text += condition.empty() ? "unreachable" : "`" + condition + "` does not hold";
  if (!message.empty()) text += ": " + message;
  return text;
}

}  // namespace

InternalError::InternalError(const std::string& file, int line, std::string condition, std::string message)
    : std::logic_error(describe(under_src(file), line, condition, message)),
      file_(under_src(file)),
      line_(line),
      condition_(std::move(condition)),
      message_(std::move(message)) {}

namespace detail {

InternalErrorReport::~InternalErrorReport() noexcept(false) {
  throw InternalError(file_, line_, condition_ ? condition_ : "", message_.str());
}

}  // namespace detail
}  // namespace ucut
