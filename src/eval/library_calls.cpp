// eval/library_calls.cpp
#include "eval/library_calls.h"

#include <fmt/format.h>

#include <regex>

#include "eval/math_libraries.h"

namespace ucut {

namespace {

/// The text with comments (and, for C++, string and character literals) blanked out, newlines kept so that
/// offsets still give line numbers.
std::string code_only(const std::string& s, SourceLanguage lang) {
  std::string out = s;
  auto blank = [&](size_t from, size_t to) {
    for (size_t i = from; i < to && i < out.size(); ++i)
      if (out[i] != '\n') out[i] = ' ';
  };
  for (size_t i = 0; i < s.size();) {
    if (lang == SourceLanguage::cpp && s.compare(i, 2, "//") == 0) {
      size_t end = s.find('\n', i);
      end = end == std::string::npos ? s.size() : end;
      blank(i, end);
      i = end;
    } else if (lang == SourceLanguage::cpp && s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? s.size() : end + 2;
      blank(i, end);
      i = end;
    } else if (lang == SourceLanguage::cpp && (s[i] == '"' || s[i] == '\'')) {
      char quote = s[i];
      size_t j = i + 1;
      while (j < s.size() && s[j] != quote && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else if (lang == SourceLanguage::python && s[i] == '#') {
      size_t end = s.find('\n', i);
      end = end == std::string::npos ? s.size() : end;
      blank(i, end);
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

int line_at(const std::string& s, size_t offset) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(offset), '\n'));
}

struct Pattern {
  MathLibrary library;
  std::regex re;
};

/// Library entry points that compute a whole GEMM, convolution, sparse product or FFT.
const std::vector<Pattern>& main_op_patterns(SourceLanguage lang) {
  static const std::vector<Pattern> cpp = {
      {MathLibrary::cublas, std::regex(R"(\bcublas[SDHCZ]?(gemm|Gemm|gemv|Gemv)\w*\s*\()")},
      {MathLibrary::cublasLt, std::regex(R"(\bcublasLtMatmul\s*\()")},
      {MathLibrary::cudnn, std::regex(R"(\bcudnn(Convolution\w*|BackendExecute|MultiHeadAttnForward)\s*\()")},
      {MathLibrary::cusparse,
       std::regex(R"(\bcusparse(SpMV|SpMM|SpGEMM\w*|SDDMM|[SDCZ]csrmv\w*|[SDCZ]csrmm\w*)\s*\()")},
      {MathLibrary::cufft, std::regex(R"(\bcufftExec\w+\s*\()")},
      {MathLibrary::torch,
       std::regex(
           R"(\b(at|torch)::(matmul|mm|bmm|addmm|baddbmm|linear|einsum|conv\w*|cudnn_convolution\w*)\s*\()")},
      {MathLibrary::torch, std::regex(R"(\.(matmul|mm|bmm|addmm)\s*\()")},
  };
  static const std::vector<Pattern> python = {
      {MathLibrary::torch,
       std::regex(
           R"(\b(torch\.)?(matmul|mm|bmm|addmm|baddbmm|einsum|conv[123]d|conv_transpose[123]d)\s*\()")},
      {MathLibrary::torch,
       std::regex(R"(\b(torch\.nn\.functional|F)\.(linear|conv\w*|scaled_dot_product_attention)\s*\()")},
      {MathLibrary::cublas, std::regex(R"(\bcublas[SDHCZ]?(gemm|Gemm|gemv|Gemv)\w*\s*\()")},
      {MathLibrary::cublasLt, std::regex(R"(\bcublasLtMatmul\s*\()")},
      {MathLibrary::cudnn, std::regex(R"(\bcudnnConvolution\w*\s*\()")},
      {MathLibrary::torch, std::regex(R"(\b(at|torch)::(matmul|mm|bmm|addmm|linear|conv\w*)\s*\()")},
  };
  return lang == SourceLanguage::python ? python : cpp;
}

}  // namespace

SourceLanguage language_of(const std::string& path) {
  return path.size() >= 3 && path.compare(path.size() - 3, 3, ".py") == 0 ? SourceLanguage::python
                                                                            : SourceLanguage::cpp;
}

SourceScan scan_source(const std::string& text, SourceLanguage lang) {
  SourceScan scan;
  std::string code = code_only(text, lang);
  static const std::regex global_fn(R"(__global__[^(;{]*?\b(\w+)\s*\()");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), global_fn); it != std::sregex_iterator(); ++it)
    scan.own_device_code.push_back(
        fmt::format("__global__ {} (line {})", (*it)[1].str(), line_at(code, static_cast<size_t>(it->position()))));
  static const std::regex cutlass(R"(\b(cutlass::(gemm|conv)::(device|kernel|collective)|cute::|CollectiveBuilder)\b)");
  if (std::smatch m; std::regex_search(code, m, cutlass))
    scan.own_device_code.push_back(fmt::format("CUTLASS/CuTe (line {})", line_at(code, static_cast<size_t>(m.position()))));
  for (const Pattern& p : main_op_patterns(lang))
    for (auto it = std::sregex_iterator(code.begin(), code.end(), p.re); it != std::sregex_iterator(); ++it) {
      std::string call = it->str();
      call.erase(call.find_last_not_of(" \t\n(") + 1);
      scan.main_op_calls.push_back(
          {std::string(library_id(p.library)), call, line_at(code, static_cast<size_t>(it->position()))});
    }
  if (lang == SourceLanguage::python) {
    // A layer module only holds parameters until it is called: `self.fc = nn.Linear(...)` is fine (an exported
    // ModelNew keeps the reference's parameters that way), `self.fc(x)` hands the work to PyTorch.
    static const std::regex module(R"(\bself\.(\w+)\s*=\s*(torch\.)?nn\.(Linear|Conv\w*|MultiheadAttention)\s*\()");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), module); it != std::sregex_iterator(); ++it) {
      std::regex use("\\bself\\." + (*it)[1].str() + "\\s*\\(");
      for (auto u = std::sregex_iterator(code.begin(), code.end(), use); u != std::sregex_iterator(); ++u)
        scan.main_op_calls.push_back({std::string(library_id(MathLibrary::torch)),
                                      fmt::format("self.{} (nn.{})", (*it)[1].str(), (*it)[3].str()),
                                      line_at(code, static_cast<size_t>(u->position()))});
    }
  }
  std::sort(scan.main_op_calls.begin(), scan.main_op_calls.end(),
            [](const LibraryCall& a, const LibraryCall& b) { return a.line < b.line; });
  return scan;
}

std::vector<IntegrityFlag> library_call_flags(const SourceScan& scan) {
  if (scan.main_op_calls.empty()) return {};
  std::vector<std::string> calls;
  for (const LibraryCall& c : scan.main_op_calls) calls.push_back(fmt::format("{} (line {})", c.function, c.line));
  if (scan.own_device_code.empty())
    return {
        {FlagId::library_only, fmt::format("no device code of its own; the work is done by library calls: {}",
                                           fmt::join(calls, ", "))}};
  return {{FlagId::library_main_op,
           fmt::format("has device code ({}) but hands the main operation to a library: {}",
                       fmt::join(scan.own_device_code, ", "), fmt::join(calls, ", "))}};
}

}  // namespace ucut
