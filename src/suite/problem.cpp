// suite/problem.cpp — the op table's lookups and an op's typed key access.
#include "suite/problem.h"

namespace ucut::suite {
namespace {

struct OpRow {
  const char* name;
  OpForm form;
};

constexpr OpRow kOps[] = {
#define SUITE_OP(name, form) {#name, OpForm::form},
#include "suite/ops.def"
#undef SUITE_OP
};

}  // namespace

OpForm op_form(OpKind k) { return kOps[static_cast<size_t>(k)].form; }
const char* op_name(OpKind k) { return kOps[static_cast<size_t>(k)].name; }

std::optional<OpKind> find_op(std::string_view name) {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (name == kOps[i].name) return static_cast<OpKind>(i);
  return std::nullopt;
}

std::vector<std::string_view> op_names() {
  std::vector<std::string_view> out;
  for (const OpRow& r : kOps) out.push_back(r.name);
  return out;
}

const Attr* Op::get(const std::string& key) const {
  auto it = attrs.find(key);
  return it == attrs.end() ? nullptr : &it->second;
}

double Op::number_or(const std::string& key, double fallback) const {
  const Attr* a = get(key);
  return a && a->number ? *a->number : fallback;
}

bool Op::flag_or(const std::string& key, bool fallback) const {
  const Attr* a = get(key);
  return a && a->flag ? *a->flag : fallback;
}

Shape Op::ints_or(const std::string& key, size_t rank, int64_t fallback) const {
  const Attr* a = get(key);
  if (a && a->ints) return *a->ints;
  int64_t v = a && a->number ? static_cast<int64_t>(*a->number) : fallback;
  return Shape(rank, v);
}

}  // namespace ucut::suite
