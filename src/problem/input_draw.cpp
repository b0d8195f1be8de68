// problem/input_draw.cpp — see input_draw.h.
#include "problem/input_draw.h"

#include <array>
#include <sstream>

namespace ucut {
namespace {

constexpr std::array<const char*, 4> kRoles = {"a", "b", "c", "vectors"};

std::array<InputDraw*, 4> roles(InputDraws& d) { return {&d.a, &d.b, &d.c, &d.vectors}; }
std::array<InputDraw, 4> roles(const InputDraws& d) { return {d.a, d.b, d.c, d.vectors}; }

}  // namespace

bool InputDraws::all_signed() const {
  for (InputDraw d : roles(*this))
    if (d != InputDraw::signed_mix) return false;
  return true;
}

bool InputDraws::same_as(const InputDraws& o) const { return roles(*this) == roles(o); }

std::string InputDraws::text() const {
  if (all_signed()) return "signed";
  std::string s;
  auto r = roles(*this);
  for (size_t i = 0; i < r.size(); ++i) s += std::string(i ? " " : "") + kRoles[i] + "=" + std::string(enum_name(r[i]));
  return s;
}

std::optional<InputDraws> parse_input_draws(std::string_view text) {
  InputDraws d;
  if (text == "signed") return d;
  std::istringstream in{std::string(text)};
  std::string item;
  auto slots = roles(d);
  for (size_t i = 0; i < kRoles.size(); ++i) {
    if (!(in >> item)) return std::nullopt;
    std::string prefix = std::string(kRoles[i]) + "=";
    if (item.rfind(prefix, 0) != 0) return std::nullopt;
    auto draw = parse_enum<InputDraw>(std::string_view(item).substr(prefix.size()));
    if (!draw) return std::nullopt;
    *slots[i] = *draw;
  }
  if (in >> item) return std::nullopt;
  return d;
}

}  // namespace ucut
