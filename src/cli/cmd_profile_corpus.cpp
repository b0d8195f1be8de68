// cli/cmd_profile_corpus.cpp — `ucutlass profile-corpus MANIFEST --out FILE`: profile the manifest's (spec,
// problem) pairs, learn the classifier's thresholds from them by Otsu and write them with their corpus
// (workflow/profile_corpus.h). Pairs without counters are listed and skipped; with none profiled nothing is
// written.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "engine/profile/classify.h"
#include "engine/profile/default_thresholds.h"
#include "workflow/profile_corpus.h"

namespace ucut::cli {

Command profile_corpus_command() {
  return {
      "profile-corpus",
      "profile (spec, problem) pairs with Nsight Compute and learn the bottleneck classifier's thresholds "
      "from "
      "them (Otsu), written with their corpus (GPU and ncu)",
      [](CLI::App& sub) {
        auto manifest = std::make_shared<std::string>();
        auto out = std::make_shared<std::string>();
        auto name = std::make_shared<std::string>();
        auto o = std::make_shared<ProfileOptions>();
        sub.add_option(
               "manifest", *manifest,
               "TOML: name = \"...\" and one [[pair]] per profile with spec = \"...\", problem = \"...\" "
               "(paths relative to the manifest)")
            ->required();
        sub.add_option("--out", *out,
                       fmt::format("the thresholds file to write (the classifier reads data/{} by default)",
                                   profile::kThresholdsFileName))
            ->required();
        sub.add_option("--name", *name,
                       "the corpus's name (default: the manifest's `name`, else its file stem)");
        add_profiling_options(sub, *o);
        return [=]() -> int {
          std::string error;
          auto m = load_corpus_manifest(*manifest, &error);
          if (!m) {
            std::cerr << "ucutlass profile-corpus: " << error << "\n";
            return kUsage;
          }
          if (!name->empty()) m->name = *name;
          CorpusResult r = record_corpus(*m, *o, [](const std::string& line) { std::cout << line << "\n"; });
          if (r.profiled() == 0) {
            std::cerr << fmt::format(
                "ucutlass profile-corpus: none of the {} pairs could be profiled (reasons above); nothing "
                "written\n",
                m->pairs.size());
            return kNeedsGpu;
          }
          const profile::Thresholds& t = r.thresholds;
          std::cout << fmt::format("thresholds: SM {:.4g}%, DRAM {:.4g}%, Memory {:.4g}% — {}\n", t.sm_pct,
                                   t.dram_pct, t.mem_pct, t.source);
          for (const CorpusEntry& e : r.entries)
            if (e.kernel)
              std::cout << fmt::format("  {}: {}\n", e.kernel->source,
                                       enum_name(profile::classify(*e.kernel, t).bottleneck));
          std::error_code ec;
          if (auto parent = std::filesystem::path(*out).parent_path(); !parent.empty())
            std::filesystem::create_directories(parent, ec);
          if (!profile::save_thresholds(t, *out, &error)) {
            std::cerr << "ucutlass profile-corpus: " << error << "; choose another --out\n";
            return kIoError;
          }
          std::cout << fmt::format("wrote {} ({} of {} pairs profiled)\n", *out, r.profiled(),
                                   m->pairs.size());
          return kOk;
        };
      }};
}

}  // namespace ucut::cli
