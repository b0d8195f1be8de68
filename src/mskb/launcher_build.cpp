// mskb/launcher_build.cpp
#include "mskb/launcher_build.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "build/nvcc.h"
#include "support/files.h"

namespace fs = std::filesystem;

namespace ucut::mskb {

namespace {

std::string argument(const Param& p, size_t i) {
  std::string type = std::string(p.is_const && p.pointer ? "const " : "") + ctype_spelling(p.type);
  if (p.pointer) return "static_cast<" + type + "*>(args[" + std::to_string(i) + "])";
  return "*static_cast<const " + type + "*>(args[" + std::to_string(i) + "])";
}

/// `text` (the file `file`) with every `#include "NAME"` whose NAME is a file in one of `dirs` replaced by that
/// file's contents (recursively, each file once, as `#pragma once` would), so one translation unit carries the
/// launcher and its local headers and alone keys the build cache. #line directives keep nvcc's messages in each
/// file's own lines, named by the file's name alone (the cache key holds no directory).
std::string inline_local_headers(const std::string& text, const std::string& file, const std::vector<fs::path>& dirs,
                                 std::set<std::string>& done) {
  static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)"[^\n]*$)re", std::regex::multiline);
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), include);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::string name = m[1];
    auto dir = std::find_if(dirs.begin(), dirs.end(), [&](const fs::path& d) { return fs::is_regular_file(d / name); });
    if (dir == dirs.end()) continue;
    fs::path header = *dir / name;
    out += text.substr(last, static_cast<size_t>(m.position(0)) - last);
    last = static_cast<size_t>(m.position(0) + m.length(0));
    if (!done.insert(name).second) continue;
    std::string body = read_file(header.string()).value_or("");
    size_t next_line = static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(last), '\n')) + 2;  // the line after the include
    out += "// --- inlined " + name + "\n#line 1 \"" + name + "\"\n" + inline_local_headers(body, name, dirs, done) +
           "\n// --- end " + name + "\n#line " + std::to_string(next_line) + " \"" + file + "\"";
  }
  return out + text.substr(last);
}

}  // namespace

namespace {

/// `sig`'s parameter types as the C ABI sees them: pointee cv dropped ("float*"), values bare ("int").
std::string abi_types(const Signature& sig) {
  std::string out;
  for (size_t i = 0; i < sig.params.size(); ++i)
    out += (i ? ", " : "") + std::string(ctype_spelling(sig.params[i].type)) + (sig.params[i].pointer ? "*" : "");
  return out;
}

/// `sig`'s parameter types as declared, names dropped: "const float*, int".
std::string declared_types(const Signature& sig) {
  std::string out;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    const Param& p = sig.params[i];
    out += (i ? ", " : "") + std::string(p.is_const && p.pointer ? "const " : "") + ctype_spelling(p.type) +
           (p.pointer ? "*" : "");
  }
  return out;
}

}  // namespace

std::string expected_launcher(const Signature& sig, const std::string& symbol) {
  return "void " + symbol + "(" + declared_types(sig) + ")";
}

std::string interface_check(const Signature& sig, const std::string& symbol) {
  // `&symbol` is looked up where a fallback `absent symbol(absent)` is visible too (a using-directive makes both
  // global-scope candidates): signature_of deduces from the one void function, the candidate's; when the candidate
  // declares none, only the fallback matches and the result is `absent`.
  std::string expected = expected_launcher(sig, symbol);
  return fmt::format(
      R"check(
// ---- ucutlass MSKB interface check (generated): the launcher as the C ABI sees it ----
#line 1 "ucutlass_mskb_interface_check"
#include <cuda_bf16.h>
#include <type_traits>
namespace ucut_mskb_abi {{
struct absent {{}};
template <int N> struct priority : priority<N - 1> {{}};
template <> struct priority<0> {{}};
template <class T> struct abi {{ using type = T; }};
template <class T> struct abi<T*> {{ using type = typename std::remove_cv<T>::type*; }};
template <class... P> struct launcher {{}};
template <class... P> launcher<typename abi<P>::type...> signature_of(priority<1>, void (*)(P...));
template <class F> absent signature_of(priority<0>, F);
template <class Found> constexpr bool check_launcher(Found) {{
  static_assert(!std::is_same<Found, absent>::value,
                "[{missing}] the file declares no function {expected}");
  static_assert(std::is_same<Found, absent>::value || std::is_same<Found, launcher<{abi}>>::value,
                "[{mismatch}] the launcher must be {expected} (const, parameter names and default arguments may "
                "differ)");
  return true;
}}
namespace fallback {{ absent {symbol}(absent); }}
}}
namespace ucut_mskb_probe {{
using namespace ucut_mskb_abi::fallback;
static_assert(ucut_mskb_abi::check_launcher(
                  decltype(ucut_mskb_abi::signature_of(ucut_mskb_abi::priority<1>{{}}, &{symbol})){{}}),
              "");
}}
)check",
      fmt::arg("missing", kRuleLauncherMissing), fmt::arg("mismatch", kRuleLauncherSignature),
      fmt::arg("expected", expected), fmt::arg("abi", abi_types(sig)), fmt::arg("symbol", symbol));
}

std::string call_adapter(const Signature& sig, const std::string& symbol) {
  std::string s = interface_check(sig, symbol);
  s += std::string("extern \"C\" __attribute__((visibility(\"default\"))) void ") + kCallSymbol +
       "(void* const* args) {\n  " + symbol + "(";
  for (size_t i = 0; i < sig.params.size(); ++i) s += (i ? ",\n      " : "") + argument(sig.params[i], i);
  return s + ");\n}\n";
}

std::string source_label(const LauncherSource& s) {
  return s.label.empty() ? std::string(enum_name(s.role)) : s.label;
}

std::vector<LauncherSource> launcher_sources(const Task& task, Precision p, const std::string& suite_dir,
                                             const std::string& impl_dir) {
  std::string name = launcher_name(task, p), prec = precision_name(p);
  std::vector<LauncherSource> out;
  out.push_back({Role::naive, (fs::path(suite_dir) / "naive" / prec / (name + ".cu")).string(), name, {}});
  if (!task.vendor.empty())
    out.push_back({Role::vendor,
                   (fs::path(suite_dir) / "vendor" / prec / (name + ".cu")).string(),
                   name + "_vendor",
                   {}});
  if (!impl_dir.empty())
    for (const fs::path& candidate : {fs::path(impl_dir) / prec / (name + ".cu"), fs::path(impl_dir) / (name + ".cu")})
      if (fs::is_regular_file(candidate)) {
        out.push_back({Role::candidate, candidate.string(), name + "_optimized", {}});
        break;
      }
  return out;
}

std::vector<LauncherBuild> build_launchers(const KernelCache& cache, const Task& task, Precision p,
                                           const std::vector<LauncherSource>& sources, const std::string& gencode,
                                           int jobs) {
  Signature sig = task_signature(task, p);
  std::vector<LauncherBuild> builds(sources.size());
  std::vector<EmittedKernel> units;
  std::vector<size_t> unit_of;
  for (size_t i = 0; i < sources.size(); ++i) {
    builds[i].source = sources[i];
    fs::path path = sources[i].path;
    if (!fs::is_regular_file(path)) {
      builds[i].error = builds[i].first_error = path.string() + ": no such file";
      continue;
    }
    EmittedKernel k;
    std::set<std::string> inlined;
    // Local headers sit beside the launcher or one folder up (suites/mskb/vendor/*.h for vendor/<precision>/*.cu).
    std::string file = path.filename().string();
    k.code = "#line 1 \"" + file + "\"\n" +
             inline_local_headers(read_file(path.string()).value_or(""), file,
                                  {path.parent_path(), path.parent_path().parent_path()}, inlined) +
             call_adapter(sig, sources[i].symbol);
    builds[i].code = k.code;
    k.kernel_namespace = sources[i].symbol;
    k.gencode = gencode;
    k.libraries = {"cublas", "cublasLt", "cusparse", "cufft", "cudnn", "curand"};
    k.extra_flags = sources[i].nvcc_flags;
    units.push_back(std::move(k));
    unit_of.push_back(i);
  }
  std::vector<BuildResult> results = cache.build_all(units, jobs);
  for (size_t u = 0; u < results.size(); ++u) {
    LauncherBuild& b = builds[unit_of[u]];
    const BuildResult& r = results[u];
    b.ok = r.ok;
    b.cached = r.cached;
    b.library = r.library;
    b.seconds = r.seconds;
    if (!r.ok) {
      std::string log = read_file(r.log_path).value_or("");
      b.error = b.source.path + " does not build (" + b.source.symbol + ", full log " + r.log_path + "):\n" +
                (log.empty() ? r.error : nvcc_error_lines(log));
      b.first_error = log.empty() ? r.error : first_build_error(log);
      static const std::regex found(R"(Found=ucut_mskb_abi::launcher<(.*)>\])");  // nvcc's note under the check
      std::smatch m;
      if (b.first_error.find(kRuleLauncherSignature) != std::string::npos && std::regex_search(log, m, found))
        b.first_error += "; found void(" + m[1].str() + "), a pointee's const dropped";
    }
  }
  return builds;
}

}  // namespace ucut::mskb
