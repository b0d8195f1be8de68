// engine/recorded_executor.h — an executor that measures nothing: it answers each candidate with what a recorded
// workspace measured for the same problem and config hash. Replaying a search against the recording of an
// exhaustive run gives the outcome the search would have had on that GPU, at no GPU cost, so searchers can be
// compared on exactly the same measurements (workflow/search_compare.h).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "engine/executor.h"
#include "store/workspace.h"

namespace ucut::engine {

class RecordedExecutor final : public Executor {
 public:
  /// Every finished attempt of `ws`, by (problem id, config hash).
  explicit RecordedExecutor(store::Workspace& ws);
  void prebuild(const std::vector<std::string>&) override {}
  /// The recorded outcome; a config the recording lacks comes back as a failed check naming the reason, and is
  /// counted in misses().
  CandidateOutcome measure(const std::string& spec, const Problem& problem) override;

  int misses() const { return misses_; }
  size_t recorded() const { return attempts_.size(); }

 private:
  std::map<std::pair<std::string, std::string>, store::AttemptRow> attempts_;
  int misses_ = 0;
};

}  // namespace ucut::engine
