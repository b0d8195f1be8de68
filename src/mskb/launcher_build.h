// mskb/launcher_build.h — how an MSKB launcher file becomes a library the harness can call. The source (one
// self-contained .cu, as MSKB's own files are) is compiled as written, with an interface check and a call adapter
// appended: the check compares the launcher's signature with the task's as the C ABI sees it (const on a pointee
// or a value, parameter names and default arguments may differ; types, count, pointer vs value may not), and
// `ucut_mskb_call(void* const* args)` calls the launcher with the task's parameters, so the worker calls every
// task and role the same way. Like MSKB's test programs, which paste the launcher into the program that calls it,
// the adapter calls it by name in the same translation unit: `extern "C"` is not required. Local
// headers beside the launcher or one folder up (suites/mskb/vendor/*.h) are inlined, so the translation unit alone
// keys the build cache.
#pragma once

#include <string>
#include <vector>

#include "build/cache.h"
#include "mskb/protocol_enums.h"
#include "mskb/signature.h"
#include "mskb/task.h"

namespace ucut::mskb {

inline constexpr const char* kCallSymbol = "ucut_mskb_call";

/// The interface check's rule ids, in its static_assert messages (so in nvcc's first error line).
inline constexpr const char* kRuleLauncherMissing = "mskb-launcher-missing";      // no void function of that name
inline constexpr const char* kRuleLauncherSignature = "mskb-launcher-signature";  // a real interface change

/// "void RELU_bf16_optimized(__nv_bfloat16*, const __nv_bfloat16*, int)": what the check asks for.
std::string expected_launcher(const Signature& sig, const std::string& symbol);

/// The compile-time check, appended after the launcher's text: a static_assert naming kRuleLauncherMissing when
/// the file declares no single void function `symbol`, else kRuleLauncherSignature when its parameter types, with
/// a pointee's const/volatile dropped, differ from `sig`'s; nvcc's note under it names what was found.
std::string interface_check(const Signature& sig, const std::string& symbol);

/// The check, then the adapter: ucut_mskb_call calls `symbol` with `sig`'s parameters. args[i] is the device
/// pointer itself for a pointer parameter and points at the host value for a scalar.
std::string call_adapter(const Signature& sig, const std::string& symbol);

/// One launcher to build: which file, and which function in it.
struct LauncherSource {
  Role role = Role::naive;
  std::string path;    // the .cu
  std::string symbol;  // RELU, RELU_vendor, RELU_optimized
  std::vector<std::string> nvcc_flags;  // options after the build's own (a candidate's, chosen by an agent)
  std::string label;  // its key in a pair's report: the role's name when empty; several candidates of one pair
                      // (`mskb tune`'s variants) each have their own
};

/// The report key of `s`: its label, or its role's name.
std::string source_label(const LauncherSource& s);

/// The launcher sources of `task` in `p` under suites/mskb (`suite_dir`), naive then vendor (when the task has
/// one), and the candidate from `impl_dir` when it holds <name>.cu or <precision>/<name>.cu (MSKB's own layout).
std::vector<LauncherSource> launcher_sources(const Task& task, Precision p, const std::string& suite_dir,
                                             const std::string& impl_dir);

struct LauncherBuild {
  LauncherSource source;
  bool ok = false;
  bool cached = false;
  std::string library;
  std::string error;        // the file and nvcc's first error lines
  std::string first_error;  // the log's first error line, trimmed (build/nvcc.h first_build_error)
  double seconds = 0;
  std::string code;   // the translation unit built: the launcher with its local headers inlined, and the adapter
};

/// Builds each source for `gencode` through the cache (up to `jobs` at once), linking the vendor libraries.
std::vector<LauncherBuild> build_launchers(const KernelCache& cache, const Task& task, Precision p,
                                           const std::vector<LauncherSource>& sources, const std::string& gencode,
                                           int jobs);

}  // namespace ucut::mskb
