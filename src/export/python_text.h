// export/python_text.h — writing Python source text: string literals that carry any text, identifiers,
// numbers.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ucut::interop {

/// A triple-quoted Python string literal whose value is exactly `text`: backslashes, quote runs and control
/// characters are escaped; everything else (newlines included) stays as written, so embedded C++ reads as
/// C++.
std::string python_string_literal(std::string_view text);

/// `name` as a Python identifier that is no keyword and not yet in `taken` (a `_` or `_2`, `_3`... appended),
/// added to `taken`.
std::string python_name(std::string_view name, std::set<std::string>& taken);

/// `text` as `# ` comment lines of at most `width` columns (words are not split).
std::string python_comment(std::string_view text, size_t width = 110);

/// A float literal that reads back as exactly `v`: "2.0", "0.1", "1e-05".
std::string python_float(double v);

/// A tuple of integers: "(1024, 8192)", "(128,)".
std::string python_tuple(const std::vector<int64_t>& v);

}  // namespace ucut::interop
