// tests/unit/store/workspace_shared_test.cpp — several processes writing one workspace at once: no one sees
// "database is locked", and each (problem, config hash) is claimed exactly once.
#include <gtest/gtest.h>

#include <set>

#include "fixture.h"
#include "store/workspace.h"

namespace ucut::store {
namespace {

using namespace testing;

TEST(WorkspaceShared, ProcessesClaimEachHashOnce) {
  TempDir dir;
  std::string path = dir.file("w.db");
  int64_t run = workspace_with_run(path);
  constexpr int kWriters = 3, kHashes = 20;
  in_writer_processes(kWriters, [&](int w) {
    Workspace ws = Workspace::open(path);
    for (int i = 0; i < kHashes; ++i) {
      AttemptRow a = sample_attempt("p1", run, "hash-" + std::to_string(i));
      a.proposer = "writer-" + std::to_string(w);
      a = ws.claim_attempt(a);
      if (a.proposer == "writer-" + std::to_string(w)) ws.finish_attempt(measured(a, 1.0 + i));
    }
  });
  Workspace ws = Workspace::open(path);
  std::vector<AttemptRow> all = ws.attempts("p1");
  ASSERT_EQ(all.size(), size_t{kHashes});
  std::set<std::string> hashes;
  for (const AttemptRow& a : all) {
    hashes.insert(a.config_hash);
    EXPECT_EQ(a.status, AttemptStatus::measured) << a.config_hash;
  }
  EXPECT_EQ(hashes.size(), size_t{kHashes});
  EXPECT_EQ(ws.best_attempt("p1")->config_hash, "hash-0");
}

}  // namespace
}  // namespace ucut::store
