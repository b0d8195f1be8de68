// cli/invocation.cpp — see invocation.h.
#include "cli/invocation.h"

namespace ucut::cli {
namespace {

std::string g_invocation = "ucutlass";

/// `arg` as a POSIX shell reads it back: bare when it holds only safe characters, else in single quotes.
std::string shell_word(const std::string& arg) {
  bool safe = !arg.empty() && arg.find_first_not_of(
                                  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                  "_-+=./:,@%") == std::string::npos;
  if (safe) return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

void record_invocation(int argc, char** argv) {
  g_invocation = "ucutlass";
  for (int i = 1; i < argc; ++i) g_invocation += " " + shell_word(argv[i]);
}

const std::string& invocation() { return g_invocation; }

}  // namespace ucut::cli
