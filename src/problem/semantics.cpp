// problem/semantics.cpp — see semantics.h.
#include "problem/semantics.h"

#include "dsl/ast_build.h"
#include "ir/lower.h"

namespace ucut {
namespace {

/// `declared` with the extents the operator gives operand `role` (`M,K`; `L,M,K` batched; `G,M,K` grouped; a
/// convolution's `N,H,W,C`, ...), each extent at the type's span: a digit is a fixed extent (a depthwise filter's 1).
TensorType with_extents(const TensorType& declared, OpKind op, char role) {
  std::string names;
  if (op_spatial_dims(op)) {
    names = std::string(conv_extent_names(op, role));
  } else {
    names = op == OpKind::batched_gemm ? "L," : op == OpKind::grouped_gemm ? "G," : "";
    names += role == 'a' ? "M,K" : role == 'b' ? "K,N" : "M,N";
  }
  TensorType t;
  t.dtype = declared.dtype;
  for (const Call& m : declared.modifiers) t.modifiers.push_back(clone_call(m));
  for (size_t at = 0; at <= names.size();) {
    size_t comma = std::min(names.find(',', at), names.size());
    std::string name = names.substr(at, comma - at);
    bool fixed = name.find_first_not_of("0123456789") == std::string::npos;
    t.dims.push_back(Dim{fixed ? "" : name, fixed ? std::stoll(name) : 0, declared.dtype.span});
    at = comma + 1;
  }
  return t;
}

/// `NAME: T[extents] modifiers`, the declaration of operand `role`.
Arg operand(std::string_view name, const TensorType& declared, OpKind op, char role) {
  Span at = declared.dtype.span;
  return declaration_arg(std::string(name), tensor_expr(with_extents(declared, op, role), at), at);
}

}  // namespace

std::optional<KernelConfig> lower_semantics(const SourceFile& src, const DeclarationSite& site,
                                            const ProblemSyntax& syntax, DiagEngine& diags) {
  const OpKind op = site.op.value;
  const OperandNames names = operand_names(op);
  KernelAst k;
  k.span = k.whole = site.header;
  k.name = {site.name, site.header};
  k.arch = {"sm90a", site.header};  // semantics only: no tuning is read, the arch's defaults fill it
  k.op = bare_call(std::string(op_name(op)), site.op.span);
  k.op.has_parens = true;
  k.op.args.push_back(operand(names.a, syntax.a, op, 'a'));
  k.op.args.push_back(operand(names.b, syntax.b, op, 'b'));
  k.op.args.push_back(keyword_arg("math", name_expr(site.math.value, site.math.span), site.math.span));
  for (const Call& stage : syntax.epilogue) k.stages.push_back(clone_call(stage));
  Call store = call_of("store", {}, syntax.d.dtype.span);
  store.args.push_back(operand(names.d, syntax.d, op, 'd'));
  k.stages.push_back(std::move(store));
  return lower(src, k, diags);
}

}  // namespace ucut
