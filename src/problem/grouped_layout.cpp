// problem/grouped_layout.cpp — see grouped_layout.h.
#include "problem/grouped_layout.h"

#include <fmt/format.h>

namespace ucut {

int64_t packed_ld(Layout layout, int64_t rows, int64_t cols) { return layout == Layout::col ? rows : cols; }

PackedGroup pack_group(const std::vector<GroupProblem>& problems, Layout a, Layout b, Layout c, Layout d) {
  PackedGroup g;
  for (const GroupProblem& p : problems) {
    PackedProblem q;
    q.m = p.m, q.n = p.n, q.k = p.k;
    q.a_offset = g.a_elements;
    q.b_offset = g.b_elements;
    q.d_offset = g.d_elements;
    q.lda = packed_ld(a, p.m, p.k);
    q.ldb = packed_ld(b, p.k, p.n);
    q.ldc = packed_ld(c, p.m, p.n);
    q.ldd = packed_ld(d, p.m, p.n);
    g.a_elements += p.m * p.k;
    g.b_elements += p.k * p.n;
    g.d_elements += p.m * p.n;
    g.problems.push_back(q);
  }
  g.macs = group_macs(problems);
  return g;
}

int64_t group_macs(const std::vector<GroupProblem>& problems) {
  int64_t macs = 0;
  for (const GroupProblem& p : problems) macs += p.m * p.n * p.k;
  return macs;
}

std::string grouped_shape_text(const std::vector<GroupProblem>& problems, size_t shown) {
  std::string list;
  for (size_t i = 0; i < problems.size() && i < shown; ++i)
    list += fmt::format("{}{}x{}x{}", i ? ", " : "", problems[i].m, problems[i].n, problems[i].k);
  if (problems.size() > shown) list += ", ...";
  return fmt::format("grouped {}x({})", problems.size(), list);
}

}  // namespace ucut
