// emit/memory/memop_code.h — the C++ text the memory-bound emitters (map.cpp, reduce.cpp) share: the names
// of emitted values, an operand, an `expr` program and a chain stage as C++, and how each input is read over
// the kernel's domain (ir/memop.h MemOpConfig::domain: a map's output, a reduce's first input): densely, or
// through strides (broadcast, column slices).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "emit/cpp_writer.h"
#include "ir/memop.h"
#include "support/source.h"

namespace ucut::memory {

// Emitted names carry a prefix, so no spec name can clash with C++: t_ a tensor (its pointer, or its reader
// in the Map), v_ an input's value at one element, s_ a run-time scalar, n_ an extent.
std::string tensor_id(const std::string& name);
std::string value_id(const std::string& name);
std::string scalar_id(const std::string& name);
std::string extent_id(const Extent& e);

/// The C++ name of operand i (`load(i)`): an input's value at the element, a scalar, or (a reduce's) an
/// extent as a float.
std::string operand_code(const MemOpConfig& m, size_t i);
/// The postfix program of an `expr(...)` stage as one C++ expression over the float `x` and the operands.
std::string expr_code(const MemOpConfig& m, const EpiExpr& e);
/// One stage of the chain as a statement on the float `x`; the store is the kernel's own conversion.
std::string stage_code(const MemOpConfig& m, const EpiOp& op);

/// A stride or offset in elements: a product of extents and numbers, or zero.
struct Product {
  bool zero = false;
  std::vector<std::string> factors;
  std::string code() const {
    if (zero) return "0";
    std::string out;
    for (const std::string& f : factors) out += (out.empty() ? "" : " * ") + f;
    return out.empty() ? "1" : out;
  }
};

/// How one input is read: densely (the domain's element i is its element i), backwards along the domain's rows
/// (`reversed`: a `reverse(P)` view), or through strides over the domain's extents (memory order), from `base`.
struct InputRead {
  bool dense = true;
  bool reversed = false;
  std::vector<Product> stride;  // per output dimension in the output's memory order
  Product base{true, {}};       // a slice's first element
  int fast = 1;                 // the stride along the output's fastest dimension: 1 or 0
};

InputRead input_read(const MemOpConfig& m, size_t i);
/// "const ElementIn0* t_in, ElementOut* t_out, float s_alpha, int64_t n_N, ": a run function's leading
/// parameters (the caller's inputs, the output, the scalars, the extents), each followed by ", ".
std::string run_params(const MemOpConfig& m);
/// The body struct's `misaligned()`: the first input whole vectors cannot read (its name), or nullptr.
void write_misaligned(CppWriter& w, const MemOpConfig& m);
/// The opening of every family kernel's file: the provenance, `includes`, the kernel's namespace with the
/// prologue and memop_runtime.inc, memop_reverse.inc when an input is a reversed view, each of `templates` (the
/// family's runtime), then the element types of the caller's inputs (ElementIn0, ...) and of the output (ElementOut).
void write_family_opening(CppWriter& w, const SourceFile& src, const MemOpConfig& m,
                          std::initializer_list<std::string_view> includes,
                          std::initializer_list<std::string_view> templates);
/// A family body's members: each input's reader (reader_type) and each run-time scalar, in f32.
void write_body_members(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads);
/// A family body's `vector(i)` (each input's vector at i, then lane j of the result is `lane`, which reads input
/// `a`'s lane as `v_a[j]`) and `element(i)` (`element`, which reads input `a` as `t_a.element(i)`).
void write_vector_and_element(CppWriter& w, const MemOpConfig& m, const std::string& lane, const std::string& element);
/// `var.<reader> = ...;` for each input (reader_init) and `var.<scalar> = <scalar>;` for each run-time scalar: a run
/// function filling its Map or Body from its parameters.
void write_fill(CppWriter& w, const MemOpConfig& m, const std::vector<InputRead>& reads, std::string_view var);
/// The reader type of input i (memop_runtime.inc's ucut_dense_input or ucut_strided_input, memop_reverse.inc's
/// ucut_reversed_input).
std::string reader_type(const MemOpConfig& m, size_t i, const InputRead& r);
/// The reader's initializer in a run function, from the caller's pointer: `{t_P}`, `{t_P, n_N}` (reversed) or
/// `{t_P + base, {extents}, {strides}}` over the domain's extents in memory order.
std::string reader_init(const MemOpConfig& m, size_t i, const InputRead& r);

/// " -> stage -> ... -> OUTPUT": the chain's stages (`expr(...)`, `cast(T)`, an activation's name) and the output,
/// as each family's descriptive comment ends.
std::string chain_text(const MemOpConfig& m);

}  // namespace ucut::memory
