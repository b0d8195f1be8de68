// mskb/signature.cpp — a parser for the small C subset MSKB's launchers use.
#include "mskb/signature.h"

#include <regex>
#include <stdexcept>

namespace ucut::mskb {

const char* ctype_spelling(CType t) {
  switch (t) {
    case CType::f32: return "float";
    case CType::bf16: return "__nv_bfloat16";
    case CType::i32: return "int";
  }
  return "?";
}

int ctype_bytes(CType t) { return t == CType::bf16 ? 2 : 4; }

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

Param parse_param(const std::string& text, const std::string& function) {
  static const std::regex re(
      R"(^(const\s+)?(float|__nv_bfloat16|int|int32_t)\s*(\*)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=\s*(\S+))?$)");
  std::smatch m;
  std::string t = trim(text);
  if (!std::regex_match(t, m, re))
    throw std::invalid_argument("parameter `" + t + "` of " + function +
                                " is not a float/__nv_bfloat16/int value or pointer");
  Param p;
  p.is_const = m[1].matched;
  std::string type = m[2];
  p.type = type == "float" ? CType::f32 : type == "__nv_bfloat16" ? CType::bf16 : CType::i32;
  p.pointer = m[3].matched;
  p.name = m[4];
  if (m[5].matched) p.default_value = m[6];
  p.spelling = (p.is_const ? "const " : "") + type + (p.pointer ? "* " : " ") + p.name;
  return p;
}

}  // namespace

Signature parse_signature(const std::string& decl) {
  static const std::regex re(R"(^\s*void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)\s*;?\s*$)");
  std::smatch m;
  if (!std::regex_match(decl, m, re))
    throw std::invalid_argument("`" + decl + "` is not a declaration of the form void NAME(PARAMS)");
  Signature s;
  s.name = m[1];
  std::string params = m[2];
  size_t start = 0;
  while (start <= params.size()) {
    size_t comma = params.find(',', start);
    std::string one = params.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!trim(one).empty()) s.params.push_back(parse_param(one, s.name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return s;
}

std::string Signature::declaration(const std::string& symbol) const {
  std::string out = "void " + symbol + "(";
  for (size_t i = 0; i < params.size(); ++i) out += (i ? ", " : "") + params[i].spelling;
  return out + ")";
}

Signature task_signature(const Task& t, Precision p) {
  return parse_signature(p == Precision::fp32 ? t.signature_fp32 : t.signature_bf16);
}

std::string launcher_name(const Task& t, Precision p) { return p == Precision::fp32 ? t.name : t.name + "_bf16"; }

}  // namespace ucut::mskb
