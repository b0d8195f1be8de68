// problem/family_call.cpp — see family_call.h.
#include "problem/family_call.h"

#include <fmt/format.h>

namespace ucut {

int64_t FamilyCall::input_elements(size_t i) const {
  int64_t n = 1;
  for (int64_t e : inputs[i]) n *= e;
  return n;
}

FamilyCall family_call(const MemOpConfig& m, const std::map<std::string, int64_t>& symbols,
                       const std::map<std::string, double>& scalars, std::string* missing) {
  FamilyCall call;
  auto fail = [&](const std::string& name, const char* what) {
    call.error = fmt::format("gives no value for the {} `{}`", what, name);
    if (missing) *missing = name;
    return call;
  };
  auto extent = [&](const Extent& e, int64_t* out) {
    if (e.fixed()) return *out = e.size, true;
    auto it = symbols.find(e.symbol);
    if (it == symbols.end()) return false;
    return *out = it->second, true;
  };
  for (const std::string& s : m.extent_symbols()) {
    auto it = symbols.find(s);
    if (it == symbols.end()) return fail(s, "extent");
    call.extents.push_back(it->second);
  }
  for (const ScalarDecl& s : m.scalars) {
    auto it = scalars.find(s.name.value);
    if (it == scalars.end()) return fail(s.name.value, "scalar");
    call.scalars.push_back(it->second);
  }
  for (const CallerTensor& t : m.caller_inputs()) {
    size_t i = 0;
    while (i + 1 < m.inputs.size() && m.caller_name(i) != t.name) ++i;  // the first input the caller's tensor stands for
    std::vector<int64_t> dims;
    for (const Extent& e : m.inputs[i].dims) {
      int64_t v = 0;
      if (!extent(e, &v)) return fail(e.symbol, "extent");
      dims.push_back(v);
    }
    if (const ColumnSlice* s = m.slice_of(i); s && !dims.empty()) dims.back() *= s->blocks.value;
    call.inputs.push_back(std::move(dims));
  }
  return call;
}

}  // namespace ucut
