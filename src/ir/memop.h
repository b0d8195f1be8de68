// ir/memop.h — the typed IR of a memory-bound operator family (ops.def rows whose family is memory-bound):
// what lower_memop.cpp produces, check/memop_rules.cpp validates and emit/memory/ prints. One family so far,
// `map`: one pass over the elements of its output, the `>>` chain (ir/epilogues.def, the stages and formulas
// GEMM epilogues use) applied to each element of its first input, which may read the other inputs (broadcast
// to the output's extents) and run-time scalars by name; the result stored. `reduce`: one pass over the
// elements of its first input, a value `of` them combined into one (sum, mean, max, min), the chain applied
// to that, one value stored. `rownorm`: the first input normalized along some of its extents (`over`), with
// statistics (f32) per index of the others, the chain applied to each normalized element, which may read the
// other inputs broadcast to the first input's extents; the result, of the first input's extents, stored.
// `scan`: the running combination (sum, prod, max, min) of the values `of` the first input's elements along
// each row (its last extent), the chain applied to each, one value stored per element. `sparse`: a sparse
// matrix times a dense vector or matrix (ir/memop_sparse.h), the chain applied to each output element. Spans follow
// kernel_config.h: every field from the source has one; defaults carry Span::implied.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ir/kernel_config.h"
#include "ir/memop_window.h"
#include "ir/memop_library.h"
#include "ir/memop_sparse.h"
#include "support/source.h"

namespace ucut {

struct MemOpConfig;

/// A run-time scalar of a family kernel (`alpha: f32`): the caller passes it with each call; the chain reads
/// it in f32 (a bf16 scalar converted).
struct ScalarDecl {
  Spanned<std::string> name;
  Spanned<DType> dtype;
  Span span;
};

/// `slice(P, i, n)` on an input: the input is column block i of n equal blocks of the caller's tensor P,
/// whose last extent is n times the input's (silu_and_mul's `in`, [B, 2·D], holds x and g side by side in
/// each row). Every slice of one P agrees on its type, extents and n; P itself is no input of the kernel.
struct ColumnSlice {
  size_t input = 0;            // index into MemOpConfig::inputs
  Spanned<std::string> of;     // P: what the caller names the tensor
  Spanned<int> block, blocks;  // i, n
  Span span;
};

/// `reverse(P)` on an input: the input is the caller's tensor P read backwards along its last extent (element
/// j of a row of n is P's element n - 1 - j of that row), with P's extents and layout (row-major); P itself is
/// no input of the kernel.
struct ReversedView {
  size_t input = 0;         // index into MemOpConfig::inputs
  Spanned<std::string> of;  // P: what the caller names the tensor
  Span span;
};

/// A tensor the caller of a family kernel passes: an input, or the tensor its slices view (once, at its first
/// slice's place).
struct CallerTensor {
  std::string name;
  Spanned<DType> dtype;  // the input's, or the first slice's
  Span span;             // the input's declaration, or the first slice's `slice(...)`
};

/// How a `reduce` combines its values: sum, mean (the sum over the element count), max, min; argmax, argmin
/// (per-axis only: the index of the first largest or smallest value along `over`, NaN largest and smallest, as
/// torch); logsumexp (log Σ exp, as m + log Σ exp(value - m) with m the largest value, as torch.logsumexp).
enum class ReduceOp { sum, mean, max, min, argmax, argmin, logsumexp };
inline bool is_arg_op(ReduceOp op) { return op == ReduceOp::argmax || op == ReduceOp::argmin; }
/// Fixed per-index weights of a `reduce`: none, or composite Simpson's (ReduceSpec::weights).
enum class ReduceWeights { none, simpson };

std::string_view reduce_op_name(ReduceOp op);
std::optional<ReduceOp> find_reduce_op(std::string_view name);
std::string_view reduce_weights_name(ReduceWeights w);
std::optional<ReduceWeights> find_reduce_weights(std::string_view name);

/// What a `reduce(...)` computes before its chain: `op` over the value `of` each element of the first input
/// (an expression over the operands, `load(i)`; null: the first input itself), times a fixed weight per
/// index with `weights = simpson`: 1, 4, 2, 4, ..., 2, 4, 1 over the elements 0 .. J + 2, J the largest even
/// index with J + 2 < n (for an even n the last element weighs 0: Simpson's rule over the first n - 1
/// points). The value accumulates in `acc` (f32). With `over` only the extents of the first input it names
/// are reduced: one value per element of the others (the output's extents, in order; check: C706).
struct ReduceSpec {
  Spanned<ReduceOp> op;
  std::shared_ptr<const EpiExpr> of;
  Span of_span;  // implied when `of` is not given
  Spanned<ReduceWeights> weights{ReduceWeights::none, Span::implied_at({})};
  Spanned<DType> acc;
  /// `over = N` or `over = (N, K)`: the extent symbols reduced, as written; empty: every extent (a full
  /// reduction, one value).
  std::vector<Spanned<std::string>> over;
  Span over_span;  // the value of `over`; empty when not given
};

/// How a `rownorm` normalizes: softmax exp(x - max) / Σ exp(x - max); log_softmax x - max - log Σ exp(x - max);
/// layer (x - mean) / sqrt(biased variance + eps); rms x / sqrt(mean(x²) + eps); l1 x / Σ|x|; l2 x / sqrt(Σx²).
enum class NormKind { softmax, log_softmax, layer, rms, l1, l2 };

std::string_view norm_kind_name(NormKind k);
std::optional<NormKind> find_norm_kind(std::string_view name);
/// The spellings of every norm, in table order (for did-you-mean and fix hints).
std::vector<std::string_view> norm_kind_names();
/// Whether the norm adds an epsilon under its square root (layer, rms): `eps` is required there, refused elsewhere.
bool norm_takes_eps(NormKind k);

/// A value a family argument names: a run-time scalar of the kernel, or a literal (a `rownorm`'s `eps = NAME |
/// number`, a rotary map's `rotary = NAME | number`).
struct ScalarOrNumber {
  std::string scalar;  // the scalar's name; empty for a literal
  double value = 0;    // the literal
  Span span;
};

/// What a `rownorm(...)` computes before its chain: `norm` of the first input along the extents `over` (its
/// symbols, in source order), with `eps` where the norm takes one. The statistics accumulate in f32.
struct NormSpec {
  Spanned<NormKind> norm;
  std::optional<ScalarOrNumber> eps;
  std::vector<Spanned<std::string>> over;
  Span over_span;
};
/// The dimensions of the first input a `reduce` combines (those whose symbol `over` names; every one without
/// `over`) and those it keeps, each in order. The emitters take the reduced ones as one run (`adjacent`):
/// rows when the run ends the extents (`suffix`: each kept element's values are contiguous), columns when
/// kept extents follow it (C706).
struct ReduceAxes {
  std::vector<size_t> reduced, kept;
  bool adjacent() const { return !reduced.empty() && reduced.back() - reduced.front() + 1 == reduced.size(); }
  bool suffix() const { return adjacent() && (kept.empty() || kept.back() < reduced.front()); }
};
ReduceAxes reduce_axes(const MemOpConfig& m);

/// How a `scan` combines its values: a running sum, product, maximum or minimum.
enum class ScanOp { sum, prod, max, min };

std::string_view scan_op_name(ScanOp op);
std::optional<ScanOp> find_scan_op(std::string_view name);

/// What a `scan(...)` computes before its chain: along each row (the last extent) of its first input, on its
/// own, element j holds `op` over the values `of` elements 0 .. j (an expression over the inputs and scalars,
/// as a reduce's `of`; null: the first input itself). `exclusive`: over 0 .. j - 1 (element 0 holds the op's
/// identity: 0, 1, -inf, +inf); `reverse`: from the row's end, over j .. n - 1 (exclusive: j + 1 .. n - 1).
/// The running value is kept in `acc` (f32).
struct ScanSpec {
  Spanned<ScanOp> op;
  std::shared_ptr<const EpiExpr> of;
  Span of_span;  // implied when `of` is not given
  Spanned<bool> exclusive{false, Span::implied_at({})};
  Spanned<bool> reverse{false, Span::implied_at({})};
  Spanned<DType> acc;
};

/// How many CTAs a family kernel launches (`.with_grid`): `persistent`, at most as many as the GPU holds at
/// once (the threads loop over the rest); `auto` (cover), enough to cover the data once.
enum class GridPolicy { persistent, cover };

/// The launch of a family kernel (`.with_*` calls); a default carries Span::implied at the header, and a
/// value set by a call the span of its argument.
struct MemTunables {
  Spanned<int> vector;       // elements per vector access; default memop_default_vector
  Spanned<int> block;        // threads per CTA; default 256
  Spanned<int> items;        // vectors per thread per loop trip; default 1
  Spanned<GridPolicy> grid;  // default persistent
  /// Rows per CTA. A rownorm's over its last extents: each row on Block / rows threads, a power of two up to a
  /// warp (default 1: a CTA per row). A per-axis `reduce`'s over rows: each row on whole warps, rows dividing
  /// the block's warps; 0 (`auto`, the default) picks at run time from the row length.
  Spanned<int> rows;
};

inline constexpr int kMemDefaultBlock = 256;
inline constexpr int kMemDefaultItems = 1;
inline constexpr int kMemDefaultRows = 1;
inline constexpr int kMemAutoRows = 0;

struct MemOpConfig {
  Spanned<std::string> name;
  Span header;  // `kernel NAME : ARCH`
  Spanned<Arch> arch;
  Spanned<OpKind> op;
  /// The tensors the kernel reads, in declaration order; their names are the caller's (an MSKB launcher's
  /// parameters), or a slice's view of one (`slices`). The first is the chain's `x`; each broadcasts to the
  /// output's extents (check: C704).
  std::vector<TensorDecl> inputs;
  /// The run-time scalars, in declaration order.
  std::vector<ScalarDecl> scalars;
  /// The inputs that view a column block of a caller's tensor, in input order.
  std::vector<ColumnSlice> slices;
  /// The inputs read backwards along their last extent, in input order.
  std::vector<ReversedView> reversed;
  /// The `>>` stages in source order; ends with the store of the output. After a `reduce` they apply to the
  /// reduced value, after a `scan` to each scanned element.
  std::vector<EpiOp> chain;
  /// A `reduce`'s combination; nullopt for a `map`.
  std::optional<ReduceSpec> reduce;
  /// A `rownorm`'s normalization; nullopt for the other families.
  std::optional<NormSpec> norm;
  /// A `scan`'s combination; nullopt for the other families.
  std::optional<ScanSpec> scan;
  /// A `window`'s combination (ir/memop_window.h); nullopt for the other families.
  std::optional<WindowSpec> window;
  /// A library call's (sort, topk, fft, attention; ir/memop_library.h); nullopt for the other families.
  std::optional<LibrarySpec> library;
  /// A rotary map's base (`map(..., rotary = base)`, RoPE): the first input, [.., R, D] row-major, is rotated in
  /// adjacent pairs along its last extent before the chain — elements (r, 2p) and (r, 2p + 1) of each row r (its
  /// index along the second-last extent, the position) by the angle r · base^(−2p/D): x' = x·cos − x_next·sin and
  /// x_next' = x·sin + x_next·cos, in f32. nullopt for every other kernel.
  std::optional<ScalarOrNumber> rotary;
  /// A `sparse` kernel's matrix format (ir/memop_sparse.h); nullopt for the other families.
  std::optional<SparseSpec> sparse;
  MemTunables tune;

  const TensorDecl& input() const { return inputs.front(); }
  const TensorDecl& output() const { return *chain.back().tensor; }
  /// Whether the kernel is a transposing map: its output has two extents or more, the first input's number
  /// of them, in the other layout (`A: f32[M,N]` stored to `B: f32[M,N] col` is B = Aᵀ in row-major [N, M]).
  bool transposes() const;
  /// The tensor whose elements the kernel visits, whose extents every input broadcasts to (C704): a map's
  /// output, a reduce's, a rownorm's, a scan's or a transposing map's first input.
  const TensorDecl& domain() const {
    return reduce || norm || scan || window || library || transposes() ? input() : output();
  }
  /// The tensors the kernel writes, in order: the output, or a library call's outputs.
  std::vector<const TensorDecl*> outputs() const;
  /// The slice that input `i` is, or nullptr when the caller passes the input itself.
  const ColumnSlice* slice_of(size_t i) const;
  /// The reversed view that input `i` is, or nullptr.
  const ReversedView* reversed_of(size_t i) const;
  /// The name of the tensor the caller passes for input `i`: its own, or the one its slice or view reads.
  const std::string& caller_name(size_t i) const;
  /// The names the chain reads an operand by, in operand order (`load(i)`): the inputs, then the scalars;
  /// in a `reduce` then the extent symbols too (a size, read as an f32 value: `(b - a) / (N - 1)`).
  std::vector<std::string> operand_names() const;
  /// The tensors the caller passes for the inputs, in declaration order.
  std::vector<CallerTensor> caller_inputs() const;
  /// The run-time extents, each symbol once: the output's, in order (every input's broadcast to them, C704); a
  /// window's are window_extent_symbols (its output's windowed extents derive from them).
  std::vector<std::string> extent_symbols() const;
  /// Whether input i is read in whole vectors: it is not repeated along the domain's fastest dimension (its
  /// last extent, or the second last of a column-major domain), where a vector holds copies of one element.
  bool vector_read(size_t i) const;
};

/// The dimensions of a tensor of `rank` in memory order, slowest first: a column-major matrix swaps its last
/// two.
std::vector<size_t> memory_order(size_t rank, Layout layout);

/// A `rownorm`'s first input in memory order as [outer, over, inner]: the dimensions (indices into its
/// extents, slowest first) before the normalized ones, the normalized ones (`over`), and those after them.
/// `adjacent` is false when `over` names no extent of the input, one twice, or extents apart in memory
/// (check: C707); the three lists are then empty.
struct NormAxes {
  std::vector<size_t> outer, over, inner;
  bool adjacent = false;
};
NormAxes norm_axes(const MemOpConfig& m);

/// The vector width a family kernel takes without `.with_vector`: 16 bytes of its widest tensor, within the
/// `align` of the output and of every input it reads in whole vectors.
int memop_default_vector(const MemOpConfig& m);
/// The rows per CTA a family kernel takes without `.with_rows`: a rownorm 1, the others `auto`.
int memop_default_rows(const MemOpConfig& m);
const char* grid_policy_name(GridPolicy g);  // "persistent" | "auto"

/// Whether the memory-bound families emit for `a` (check: C701): the targets with a backend from sm80 on,
/// where 16-byte vector loads, bf16 and cp.async all exist (sm80, sm86, sm89, sm90a).
bool memop_emits_for(Arch a);

/// {"ucut_memop", "arch", "op", "inputs", "chain"} and, when there are any, "scalars", "slices", "reversed",
/// "tune" (the launch knobs whose value is not the default), a reduce's "reduce" ({"op", "of", "weights",
/// "acc"}, and "over" when given) and a scan's "scan" ({"op", "of", "exclusive", "reverse", "acc"}): every
/// semantic field, no spans, no kernel name.
nlohmann::json canonical_memop(const MemOpConfig& m);
/// sha256 of canonical_memop(m).dump(), and the namespace `ucut_mem_` + its first 16 hex digits.
std::string memop_hash(const MemOpConfig& m);
std::string memop_namespace(const MemOpConfig& m);
/// Human-readable IR with the line:col each field came from (`ucutlass emit --stage=ir`).
std::string dump_memop_ir(const SourceFile& src, const MemOpConfig& m);

}  // namespace ucut
