// ir/lower.cpp — lowers the kernel header, the operator call and the `.with_*` configuration calls.
// The epilogue chain is lowered by lower_epilogue.cpp.
#include "ir/lower.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <utility>

#include "ir/depthwise.h"
#include "ir/lower_util.h"
#include "ir/sm80_mma.h"
#include "support/error.h"
#include "support/suggest.h"

namespace ucut {

namespace lowering {
/// The `>> stage` chain (lower_epilogue.cpp); the shapes of its tensors are checked when `operands_ok`.
void lower_epilogue(const KernelAst& k, KernelConfig& cfg, DiagEngine& diags, bool operands_ok);
}

using namespace lowering;

namespace {

DType default_accumulator(DType in) {
  if (in == DType::f64) return DType::f64;
  return dtype_kind(in) == DTypeKind::int_ ? DType::i32 : DType::f32;
}

/// The two operand names an operator takes: A and B for GEMMs; X (activation) and W (filter) for convolutions.
/// gemm(A: T[M,K] layout, B: T[K,N] layout, acc: T, compute: T, math = tf32)
/// conv2d(X: T[N,H,W,C], W: T[K,R,S,C], acc: T, compute: T, math = tf32)   (conv1d, conv3d alike)
void lower_operator(const Call& op, KernelConfig& cfg, DiagEngine& diags) {
  if (op.name.value.empty()) throw LowerError{};  // no operator parsed (a P003 says so)
  auto kind = find_op(op.name.value);
  if (!kind) {
    attempt([&] { unknown_name(RuleId::L002, "operator", op.name.value, op.name.span, op_names(), diags); });
    // The operands' types and modifiers are read without the operator: their errors do not depend on it.
    for (const Arg& arg : op.args)
      if (!arg.incomplete && arg.kind == Arg::Kind::declaration && as_tensor(*arg.value))
        attempt([&] { lower_tensor(arg, diags, /*operand=*/true); });
    throw LowerError{};
  }
  cfg.op = {*kind, op.name.span};
  const OperandNames names = operand_names(*kind);
  const std::string name_a(names.a), name_b(names.b);
  std::string usage_a = cfg.conv() ? fmt::format("{}: bf16[{}]", name_a, conv_extent_names(*kind, 'a'))
                                   : "A: bf16[M,K] row";
  std::string usage_b = cfg.conv() ? fmt::format("{}: bf16[{}]", name_b, conv_extent_names(*kind, 'b'))
                                   : "B: bf16[K,N] col";
  std::optional<TensorDecl> a, b;
  std::optional<Spanned<DType>> acc, compute;
  std::optional<Spanned<MathMode>> math;
  std::vector<std::pair<std::string, Span>> seen;
  bool ok = !op.incomplete, positional_reported = false, given_a = false, given_b = false;
  // Each argument on its own: one that fails (or did not parse) leaves the others to report their own errors.
  auto lower_arg = [&](const Arg& arg) {
    if (arg.kind == Arg::Kind::positional) {
      if (std::exchange(positional_reported, true)) throw LowerError{};  // one L009 per call says it
      diags.report(RuleId::L009, arg.span, "operator arguments are named",
                   fmt::format("declare operands as `{}`, `{}`, `acc: f32`", usage_a, usage_b));
      throw LowerError{};
    }
    const std::string& key = arg.key.value;
    note_unique(seen, key, arg.key.span, fmt::format("argument `{}` is given twice", key), diags);
    if (arg.kind == Arg::Kind::declaration && (key == name_a || key == name_b)) {
      (key == name_a ? a : b) = lower_tensor(arg, diags, /*operand=*/true);
    } else if (arg.kind == Arg::Kind::declaration && (key == "acc" || key == "compute")) {
      const std::string* name = as_name(*arg.value);
      if (!name) {
        diags.report(RuleId::L009, arg.value->span, fmt::format("`{}` takes an element type", key),
                     fmt::format("write `{}: f32`", key));
        throw LowerError{};
      }
      Spanned<DType> t{expect_dtype(*name, arg.value->span, diags), arg.value->span};
      (key == "acc" ? acc : compute) = t;
    } else if (arg.kind == Arg::Kind::keyword && key == "math") {
      const std::string* name = as_name(*arg.value);
      static const std::map<std::string, MathMode, std::less<>> modes = {
          {"native", MathMode::native}, {"tf32", MathMode::tf32}, {"tf32x3", MathMode::tf32x3}};
      auto it = name ? modes.find(*name) : modes.end();
      if (it == modes.end())
        unknown_name(RuleId::L009, "math mode", name ? *name : "?", arg.value->span, {"native", "tf32", "tf32x3"},
                     diags);
      math = Spanned<MathMode>{it->second, arg.value->span};
    } else if (key == name_a || key == name_b || key == "acc" || key == "compute" || key == "math") {
      // A known argument with the wrong separator: `acc = f32` or `math: tf32`.
      bool want_decl = key != "math";
      Diagnostic& d = diags.report(
          RuleId::L007, arg.key.span,
          want_decl ? fmt::format("`{0}` is declared with `:` (`{0}: ...`), not set with `=`", key)
                    : fmt::format("`{0}` is set with `=` (`{0} = ...`), not declared with `:`", key),
          fmt::format("write `{}{}`", key, want_decl ? ": ..." : " = ..."));
      d.hint->edit = Edit{Span{arg.key.span.begin, arg.value->span.begin, false}, key + (want_decl ? ": " : " = ")};
      d.hint->applicability = Applicability::machine_applicable;
      throw LowerError{};
    } else {
      unknown_name(RuleId::L007, "argument", key, arg.key.span, {name_a, name_b, "acc", "compute", "math"}, diags);
    }
  };
  for (const Arg& arg : op.args) {
    given_a = given_a || (arg.kind != Arg::Kind::positional && arg.key.value == name_a);
    given_b = given_b || (arg.kind != Arg::Kind::positional && arg.key.value == name_b);
    ok = !arg.incomplete && attempt([&] { lower_arg(arg); }) && ok;
  }
  for (bool first : {true, false}) {
    // A lost, failed or positional operand is reported already.
    if (op.incomplete || positional_reported || (first ? given_a : given_b)) continue;
    diags.report(RuleId::L005, op.span,
                 fmt::format("`{}` has no operand `{}`", op.name.value, first ? name_a : name_b),
                 fmt::format("add `{}`", first ? usage_a : usage_b));
    ok = false;
  }
  if (!ok || !a || !b) throw LowerError{};
  cfg.a = *a;
  cfg.b = *b;
  Span implied = Span::implied_at(op.name.span);
  cfg.acc = acc.value_or(Spanned<DType>{default_accumulator(cfg.a.dtype.value), implied});
  cfg.compute = compute.value_or(Spanned<DType>{cfg.acc.value == DType::f64 ? DType::f64 : DType::f32, implied});
  bool f32_inputs = cfg.a.dtype.value == DType::f32 && cfg.b.dtype.value == DType::f32;
  cfg.math = math.value_or(Spanned<MathMode>{f32_inputs ? MathMode::tf32 : MathMode::native, implied});
}

/// Checks A[M,K] · B[K,N] (with a leading L when batched); the output is checked with the epilogue.
void check_operand_shapes(KernelConfig& cfg, DiagEngine& diags) {
  if (cfg.conv()) return check_conv_operands(cfg, diags);
  check_matrix_layout(cfg, cfg.a, diags);
  check_matrix_layout(cfg, cfg.b, diags);
  size_t rank = cfg.matrix_rank();
  for (const TensorDecl* t : {&cfg.a, &cfg.b}) {
    if (t->dims.size() != rank) {
      diags.report(RuleId::L013, t->span,
                   fmt::format("`{}` has {} extents; `{}` operands have {}", t->name.value, t->dims.size(),
                               op_name(cfg.op.value), rank),
                   fmt::format("write `{}: T[{}{}]`", t->name.value, rank == 2 ? "" : cfg.grouped() ? "G," : "L,",
                               t->name.value == "A" ? "M,K" : "K,N"));
      throw LowerError{};
    }
  }
  auto same = [](const Extent& x, const Extent& y) { return x.symbol == y.symbol && x.size == y.size; };
  auto show = [](const Extent& e) { return e.fixed() ? std::to_string(e.size) : e.symbol; };
  const Extent& ka = cfg.a.dims[rank - 1];
  const Extent& kb = cfg.b.dims[rank - 2];
  if (!same(ka, kb)) {
    Diagnostic& d = diags.report(RuleId::L013, kb.span,
                                 fmt::format("B's reduction extent `{}` differs from A's `{}`", show(kb), show(ka)),
                                 fmt::format("B is [K, N]: its first extent must be `{}`", show(ka)));
    d.notes.push_back(Label{ka.span, "A's reduction extent"});
    throw LowerError{};
  }
  if (rank == 3 && !same(cfg.a.dims[0], cfg.b.dims[0])) {
    diags.report(RuleId::L013, cfg.b.dims[0].span,
                 fmt::format("A and B have different {} extents", cfg.grouped() ? "group" : "batch"),
                 fmt::format("use `{}` for both", show(cfg.a.dims[0])));
    throw LowerError{};
  }
}

KernelSchedule paired_kernel_default(int tile_m) {
  return tile_m % 128 == 0 ? KernelSchedule::tma_cooperative : KernelSchedule::tma_pingpong;
}

EpilogueSchedule paired_epilogue(KernelSchedule k) {
  switch (k) {
    case KernelSchedule::tma_cooperative: return EpilogueSchedule::tma_cooperative;
    case KernelSchedule::tma_pingpong:
    case KernelSchedule::tma_warpspecialized: return EpilogueSchedule::tma;
    case KernelSchedule::tma:
    case KernelSchedule::cp_async_warpspecialized:
    case KernelSchedule::cp_async_cooperative: return EpilogueSchedule::nosmem;
    case KernelSchedule::auto_:
    case KernelSchedule::multistage: return EpilogueSchedule::auto_;
  }
  UC_UNREACHABLE() << "KernelSchedule " << static_cast<int>(k);
}

template <class E>
E lookup(const Expr& e, std::string_view what, const std::vector<std::pair<std::string_view, E>>& table,
         DiagEngine& diags) {
  const std::string* name = as_name(e);
  if (name)
    for (const auto& [n, v] : table)
      if (n == *name) return v;
  std::vector<std::string_view> known;
  for (const auto& [n, v] : table) known.push_back(n);
  if (!name) {
    diags.report(RuleId::L009, e.span, fmt::format("expected a {} name", what),
                 fmt::format("use one of {}", quoted_list(known)));
    throw LowerError{};
  }
  unknown_name(RuleId::L011, what, *name, e.span, known, diags);
}

const std::vector<std::pair<std::string_view, KernelSchedule>> kKernelSchedules = {
    {"auto", KernelSchedule::auto_},
    {"tma", KernelSchedule::tma},
    {"tma_warpspecialized", KernelSchedule::tma_warpspecialized},
    {"tma_cooperative", KernelSchedule::tma_cooperative},
    {"tma_pingpong", KernelSchedule::tma_pingpong},
    {"cp_async_warpspecialized", KernelSchedule::cp_async_warpspecialized},
    {"cp_async_cooperative", KernelSchedule::cp_async_cooperative},
    {"multistage", KernelSchedule::multistage}};
const std::vector<std::pair<std::string_view, EpilogueSchedule>> kEpilogueSchedules = {
    {"auto", EpilogueSchedule::auto_},
    {"nosmem", EpilogueSchedule::nosmem},
    {"tma", EpilogueSchedule::tma},
    {"tma_cooperative", EpilogueSchedule::tma_cooperative}};
const std::vector<std::pair<std::string_view, Raster>> kRasters = {
    {"auto", Raster::heuristic}, {"along_m", Raster::along_m}, {"along_n", Raster::along_n}};

void require_arity(const Call& c, size_t lo, size_t hi, std::string_view usage, DiagEngine& diags) {
  if (c.args.size() >= lo && c.args.size() <= hi) return;
  diags.report(RuleId::L008, c.span,
               fmt::format("`{}` takes {} argument{}, got {}", c.name.value,
                           lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi), hi == 1 ? "" : "s",
                           c.args.size()),
               fmt::format("write `{}`", usage));
  throw LowerError{};
}

void require_positional(const Arg& a, std::string_view usage, DiagEngine& diags) {
  if (a.kind == Arg::Kind::positional) return;
  diags.report(RuleId::L007, a.key.span, fmt::format("unexpected named argument `{}`", a.key.value),
               fmt::format("write `{}`", usage));
  throw LowerError{};
}

std::array<int, 3> three_ints(const Call& c, std::string_view what, int hi, std::string_view usage, DiagEngine& diags) {
  require_arity(c, 3, 3, usage, diags);
  std::array<int, 3> v{};
  for (size_t i = 0; i < 3; ++i) {
    require_positional(c.args[i], usage, diags);
    v[i] = expect_int(c.args[i], fmt::format("{} {}", what, "MNK"[i]), 1, hi, diags);
  }
  return v;
}

using ConfigFn = std::function<void(const Call&, KernelConfig&, DiagEngine&)>;

/// The `.with_*` calls: one row each. Usage strings double as fix hints.
const std::vector<std::pair<std::string_view, ConfigFn>>& config_table() {
  static const std::vector<std::pair<std::string_view, ConfigFn>> table = {
      {"with_threadblockshape",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         cfg.tile = {three_ints(c, "tile", 1024, "with_threadblockshape(128, 128, 64)", d), c.span};
       }},
      {"with_warpshape",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         cfg.warp = {three_ints(c, "warp tile", 1024, "with_warpshape(64, 64, 32)", d), c.span};
       }},
      {"with_cluster",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         cfg.cluster = {three_ints(c, "cluster", 64, "with_cluster(2, 1, 1)", d), c.span};
       }},
      {"with_scheduler",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         const char* usage = "with_scheduler(tma_cooperative, epilogue = tma_cooperative)";
         require_arity(c, 1, 2, usage, d);
         require_positional(c.args[0], usage, d);
         cfg.kernel_schedule = {lookup(*c.args[0].value, "kernel schedule", kKernelSchedules, d), c.args[0].span};
         if (c.args.size() == 2) {
           const Arg& e = c.args[1];
           if (e.kind == Arg::Kind::keyword && e.key.value != "epilogue")
             unknown_keyword(RuleId::L007, e, fmt::format("unexpected argument `{}`", e.key.value), {"epilogue"},
                             usage, d);
           if (e.kind == Arg::Kind::declaration) {
             d.report(RuleId::L007, e.key.span, fmt::format("unexpected argument `{}`", e.key.value),
                      fmt::format("write `{}`", usage));
             throw LowerError{};
           }
           cfg.epilogue_schedule = {lookup(*e.value, "epilogue schedule", kEpilogueSchedules, d), e.span};
         } else {
           cfg.epilogue_schedule = {paired_epilogue(cfg.kernel_schedule.value), Span::implied_at(c.span)};
         }
       }},
      {"with_stages",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         require_arity(c, 1, 1, "with_stages(auto)", d);
         require_positional(c.args[0], "with_stages(4)", d);
         const std::string* n = as_name(*c.args[0].value);
         if (n && *n == "auto") {
           cfg.stages = {0, c.span};
         } else {
           cfg.stages = {expect_int(c.args[0], "the stage count", 1, 32, d), c.span};
         }
       }},
      {"with_raster",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         const char* usage = "with_raster(along_n, swizzle = 2)";
         require_arity(c, 1, 2, usage, d);
         require_positional(c.args[0], usage, d);
         cfg.raster = {lookup(*c.args[0].value, "raster order", kRasters, d), c.args[0].span};
         if (c.args.size() == 2) {
           const Arg& s = c.args[1];
           if (s.kind == Arg::Kind::keyword && s.key.value != "swizzle")
             unknown_keyword(RuleId::L007, s, "the second argument of `with_raster` is `swizzle = N`", {"swizzle"},
                             usage, d);
           if (s.kind != Arg::Kind::keyword) {
             d.report(RuleId::L007, s.span, "the second argument of `with_raster` is `swizzle = N`",
                      fmt::format("write `{}`", usage));
             throw LowerError{};
           }
           cfg.swizzle = {expect_int(s, "the swizzle", 1, 64, d), s.span};
         }
       }},
      {"with_tile_scheduler",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         const char* usage = "with_tile_scheduler(stream_k)` or `with_tile_scheduler(split_k(4))";
         require_arity(c, 1, 1, usage, d);
         require_positional(c.args[0], usage, d);
         const Expr& v = *c.args[0].value;
         if (const Call* sk = as_call(v); sk && sk->name.value == "split_k") {
           if (sk->args.size() != 1) {
             d.report(RuleId::L008, sk->span, "`split_k` takes the number of splits", "write `split_k(4)`");
             throw LowerError{};
           }
           cfg.tile_scheduler = {TileScheduler::split_k, v.span};
           cfg.splits = {expect_int(sk->args[0], "the split count", 1, 1024, d), sk->args[0].span};
           return;
         }
         static const std::vector<std::pair<std::string_view, TileScheduler>> names = {
             {"default", TileScheduler::default_}, {"persistent", TileScheduler::persistent},
             {"stream_k", TileScheduler::stream_k}, {"split_k", TileScheduler::split_k}};
         TileScheduler ts = lookup(v, "tile scheduler", names, d);
         if (ts == TileScheduler::split_k) {
           d.report(RuleId::L008, v.span, "`split_k` needs the number of splits", "write `split_k(4)`");
           throw LowerError{};
         }
         cfg.tile_scheduler = {ts, v.span};
       }},
      {"with_fp8_fast_accum",
       [](const Call& c, KernelConfig& cfg, DiagEngine& d) {
         require_arity(c, 0, 1, "with_fp8_fast_accum()", d);
         bool on = true;
         if (!c.args.empty()) {
           const std::string* n = as_name(*c.args[0].value);
           if (!n || (*n != "true" && *n != "false")) {
             auto near = n ? did_you_mean(*n, {"true", "false"}) : std::nullopt;
             d.report(RuleId::L009, c.args[0].span, "`with_fp8_fast_accum` takes `true` or `false`",
                      near.value_or("write `with_fp8_fast_accum()`"));
             throw LowerError{};
           }
           on = *n == "true";
         }
         cfg.fp8_fast_accum = {on, c.span};
       }},
  };
  return table;
}

/// Each `.with_*` call on its own (lower_util.h lower_config_calls).
bool lower_configs(const KernelAst& k, KernelConfig& cfg, DiagEngine& diags) {
  return lower_config_calls(k, cfg, config_table(), "configuration call", diags);
}

void fill_defaults(KernelConfig& cfg) {
  Span implied = Span::implied_at(cfg.header);
  // Zero-initialised spans mean "not set by a config call"; only then do defaults apply.
  auto unset = [](Span s) { return s.begin == 0 && s.end == 0 && !s.implied; };
  // Grouped and depthwise convolutions exist only as CUTLASS 2.x kernels, which run on sm90a too.
  bool arch_2x = arch_info(cfg.arch.value).backend == BackendKind::sm80 ||
                 (cfg.conv() && op_conv_grouping(cfg.op.value) != ConvGrouping::dense);
  if (unset(cfg.kernel_schedule.span) && arch_2x) {
    cfg.kernel_schedule = {KernelSchedule::multistage, implied};
    cfg.epilogue_schedule = {EpilogueSchedule::auto_, implied};
  }
  auto mma_2x = sm80_mma(cfg);
  bool backend_2x = cfg.kernel_schedule.value == KernelSchedule::multistage;
  if (cfg.conv() && op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise) {
    // The direct convolution (ir/depthwise.h): its own tiles; it multiplies exact f32 on CUDA cores.
    if (unset(cfg.tile.span)) cfg.tile = {depthwise_default_tile(cfg), implied};
    if (unset(cfg.warp.span)) cfg.warp = {depthwise_warp_tile(cfg.tile.value), implied};
    if (cfg.math.span.implied && backend_2x) cfg.math.value = MathMode::native;
  }
  if (unset(cfg.tile.span)) {
    if (backend_2x && mma_2x) {
      cfg.tile = {{128, 128, mma_2x->tile_k.front()}, implied};
    } else {
      int k_elems = 1024 / dtype_bits(cfg.a.dtype.value);  // 128 bytes of K per stage
      cfg.tile = {{128, 128, k_elems}, implied};
    }
  }
  if (unset(cfg.warp.span)) {
    std::optional<Sm80Tile> row;
    if (backend_2x && mma_2x) row = sm80_tile(mma_2x->cls, cfg.tile.value[0], cfg.tile.value[1]);
    // No table row: check reports the tile (C213), so the warp tile only has to be well-formed.
    cfg.warp = {row ? std::array<int, 3>{row->warp_m, row->warp_n, cfg.tile.value[2]} : std::array<int, 3>{0, 0, 0},
                implied};
  }
  if (unset(cfg.cluster.span)) cfg.cluster = {{1, 1, 1}, implied};
  if (unset(cfg.kernel_schedule.span) && cfg.conv()) {  // the one SM90 convolution kernel (check: C106)
    cfg.kernel_schedule = {KernelSchedule::tma_warpspecialized, implied};
    cfg.epilogue_schedule = {EpilogueSchedule::tma, implied};
  }
  if (unset(cfg.kernel_schedule.span)) {
    cfg.kernel_schedule = {paired_kernel_default(cfg.tile.value[0]), implied};
    cfg.epilogue_schedule = {paired_epilogue(cfg.kernel_schedule.value), implied};
  }
  if (unset(cfg.stages.span)) cfg.stages = {0, implied};
  if (unset(cfg.raster.span)) cfg.raster = {Raster::heuristic, implied};
  if (unset(cfg.swizzle.span)) cfg.swizzle = {1, implied};
  if (unset(cfg.tile_scheduler.span)) cfg.tile_scheduler = {TileScheduler::default_, implied};
  if (unset(cfg.splits.span)) cfg.splits = {1, implied};
  if (unset(cfg.fp8_fast_accum.span)) cfg.fp8_fast_accum = {false, implied};
}

/// Alignment defaults that depend on the backend (check: C214). CUTLASS's SIMT and DMMA mainloops load A and B one
/// element per access, and the SIMT epilogue stores one element per access too.
void scalar_access_defaults(KernelConfig& cfg) {
  if (cfg.backend() != BackendKind::sm80) return;
  if (op_conv_grouping(cfg.op.value) == ConvGrouping::depthwise) return;  // 16-byte loads (ir/depthwise.h)
  auto mma = sm80_mma(cfg);
  if (!mma || (mma->cls != Sm80MmaClass::simt && mma->cls != Sm80MmaClass::f64)) return;
  std::vector<TensorDecl*> tensors = {&cfg.a, &cfg.b};
  if (mma->cls == Sm80MmaClass::simt)
    for (TensorDecl* t : cfg.epilogue_tensors()) tensors.push_back(t);
  for (TensorDecl* t : tensors)
    if (t->align.span.implied) t->align.value = 1;
}

}  // namespace

std::optional<KernelConfig> lower(const SourceFile& src, const KernelAst& k, DiagEngine& diags) {
  (void)src;
  KernelConfig cfg;
  cfg.name = k.name;
  cfg.header = k.span;
  // The header, the operator, each configuration call and each stage are lowered on their own, so one run reports
  // every independent error; the chain's shapes need the operands, and the defaults need everything.
  bool arch_ok = !k.arch.value.empty() && attempt([&] { cfg.arch = lower_arch(k.arch, diags); });
  bool op_ok = attempt([&] {
    lower_operator(k.op, cfg, diags);
    check_operand_shapes(cfg, diags);
  });
  bool configs_ok = lower_configs(k, cfg, diags);
  bool chain_ok = attempt([&] { lower_epilogue(k, cfg, diags, op_ok); });
  if (!arch_ok || !op_ok || !configs_ok || !chain_ok || k.incomplete) return std::nullopt;
  fill_defaults(cfg);
  scalar_access_defaults(cfg);
  return cfg;
}

}  // namespace ucut
