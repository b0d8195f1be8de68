/* abi/transposed_phases.h — how the SM90 kernel runs a transposed convolution: one stride-1 forward
 * convolution per output phase, each reading X in place and writing its own pixels of Y in place. Compiled into the
 * ucutlass tools (the harness checks the geometry it implies) and pasted verbatim into every SM90
 * transposed-convolution kernel, so both sides compute the same numbers.
 *
 * Along one spatial dimension the transposed convolution adds x[i] * W[tap] into y[o] where
 * o + pad = i * stride + tap * dilation. Write u = o + pad = q * stride + r: the output rows of residue r (a phase,
 * 0 <= r < stride) take the taps with tap * dilation = r + m * stride (m >= 0) from x[q - m]. Those taps are evenly
 * spaced, so phase r is a stride-1, dilated forward convolution of x with its own window (the taps in reverse order)
 * whose output row j is y's row first + j * stride. Its padding is what its window reads outside x; where the window
 * starts or ends inside x, the phase reads a cropped x instead (padding must not be negative). A phase with no tap (a
 * stride above the dilated filter's reach, or dilation sharing a factor with the stride) gets one zero tap, so its
 * rows are still the epilogue's (of zero). Y's pixels of phase (r0, r1, r2) are strided by the stride in every
 * dimension: the phase's output is a strided view of Y (CUTLASS takes the output's strides), so no scratch tensor and no
 * copy. At stride 1 there is one phase, the filter flipped in space. Each phase computes only its own taps.
 * Plain C++ (no CUDA headers); ucut_conv_args is the kernel ABI's (kernel_abi.h). */
#ifndef UCUT_TRANSPOSED_PHASES_H
#define UCUT_TRANSPOSED_PHASES_H

#if defined(__CUDACC__)
#define UCUT_PHASE_FN __host__ __device__ inline
#else
#define UCUT_PHASE_FN inline
#endif

/* At most this many phases (stride_d x stride_h x stride_w): one kernel launch each. */
#define UCUT_MAX_PHASES 4096

/* One dimension of one phase. */
typedef struct ucut_phase_dim {
  int32_t residue;   /* (o + pad) mod stride of the phase's rows */
  int32_t rows;      /* its output rows: o = first + j * stride for 0 <= j < rows (0: the phase is empty) */
  int32_t first;     /* o of row 0 */
  int32_t taps;      /* taps of the filter along the dimension (0: none; the kernel then runs one zero tap) */
  int32_t tap0;      /* the tap in the window's last slot (the nearest input row); slot a holds tap0 + (window - 1 - a) * tap_step */
  int32_t tap_step;  /* filter taps between consecutive slots */
  int32_t window;    /* slots of the forward convolution's filter: max(taps, 1) */
  int32_t dilation;  /* input rows between consecutive slots */
  int32_t in_first;  /* the first row of x it reads */
  int32_t in_rows;   /* rows of x it reads (its cropped input) */
  int32_t pad_lo, pad_hi;  /* its padding below and above that (>= 0) */
} ucut_phase_dim;

UCUT_PHASE_FN int32_t ucut_phase_floor_div(int32_t a, int32_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Dimension i of ucut_conv_args (in forward terms: y is X [n, d, h, w, c], x is Y [n, z, p, q, k]) at residue r. */
UCUT_PHASE_FN ucut_phase_dim ucut_phase_dim_of(const ucut_conv_args& c, int i, int32_t r) {
  const int32_t out[3] = {c.d, c.h, c.w}, in[3] = {c.z, c.p, c.q}, filter[3] = {c.t, c.r, c.s};
  const int32_t s = c.stride[i], dil = c.dilation[i], pad = c.pad[i];
  ucut_phase_dim d;
  d.residue = r;
  const int32_t q_lo = -ucut_phase_floor_div(r - pad, s);  /* ceil((pad - r) / s): the first row with o >= 0 */
  const int32_t q_hi = ucut_phase_floor_div(out[i] - 1 + pad - r, s);
  d.rows = q_hi >= q_lo ? q_hi - q_lo + 1 : 0;
  d.first = q_lo * s + r - pad;
  d.taps = 0;
  d.tap0 = 0;
  d.tap_step = 1;
  int32_t m0 = 0, dm = 1;
  for (int32_t t = 0; t < filter[i]; ++t) {
    if ((t * dil - r) % s != 0 || t * dil < r) continue;
    if (d.taps == 0) {
      d.tap0 = t;
      m0 = (t * dil - r) / s;
    } else if (d.taps == 1) {
      d.tap_step = t - d.tap0;
      dm = (t * dil - r) / s - m0;
    }
    ++d.taps;
  }
  /* Row j reads x[j + base + a * dm] with slot a = 0 the farthest tap (m = m0 + (taps - 1) * dm). */
  int32_t window = d.taps > 0 ? d.taps : 1, base = q_lo - m0 - (window - 1) * dm;
  const int32_t reach_end = base + d.rows - 1 + (window - 1) * dm;  /* the last row of x the window reaches */
  d.in_first = base > 0 ? base : 0;
  const int32_t last = reach_end < in[i] - 1 ? reach_end : in[i] - 1;
  d.in_rows = last - d.in_first + 1;
  if (d.taps == 0 || d.in_rows <= 0) {
    /* Nothing of x reaches these rows: one zero tap over x's first rows, padded up to the phase's rows. */
    d.taps = 0;
    window = 1;
    dm = 1;
    d.in_first = 0;
    d.in_rows = d.rows < in[i] ? d.rows : in[i];
    d.pad_lo = 0;
    d.pad_hi = d.rows - d.in_rows;
  } else {
    d.pad_lo = d.in_first - base;
    d.pad_hi = reach_end - last;
  }
  d.window = window;
  d.dilation = dm;
  return d;
}

/* The phases: every combination of residues, stride_d x stride_h x stride_w. */
UCUT_PHASE_FN int32_t ucut_phase_count(const ucut_conv_args& c) { return c.stride[0] * c.stride[1] * c.stride[2]; }

/* Filter elements of dimension i's slots over all its residues (the phases' filters are products of these). */
UCUT_PHASE_FN int64_t ucut_phase_slots(const ucut_conv_args& c, int i, int32_t below) {
  int64_t total = 0;
  for (int32_t r = 0; r < below; ++r) total += ucut_phase_dim_of(c, i, r).window;
  return total;
}

/* Phase `index` (residues in [d, h, w] order, w fastest). */
typedef struct ucut_phase {
  ucut_phase_dim dim[3];
  int32_t tapped;         /* every dimension has a tap: the filter holds W's taps (else zeros) */
  int32_t empty;          /* some dimension has no rows: nothing to launch */
  int64_t filter_offset;  /* elements of the phases before it in the staged filter buffer */
} ucut_phase;

UCUT_PHASE_FN ucut_phase ucut_phase_of(const ucut_conv_args& c, int32_t index) {
  ucut_phase p;
  int32_t r[3];
  r[2] = index % c.stride[2];
  r[1] = index / c.stride[2] % c.stride[1];
  r[0] = index / (c.stride[2] * c.stride[1]);
  p.tapped = 1;
  p.empty = 0;
  for (int i = 0; i < 3; ++i) {
    p.dim[i] = ucut_phase_dim_of(c, i, r[i]);
    p.tapped = p.tapped && p.dim[i].taps > 0;
    p.empty = p.empty || p.dim[i].rows == 0;
  }
  /* The buffer holds the phases in index order; each phase's filter is the product of its dimensions' slots, so the
   * elements before it are a sum over the residues below in each dimension. */
  const int64_t all1 = ucut_phase_slots(c, 1, c.stride[1]), all2 = ucut_phase_slots(c, 2, c.stride[2]);
  const int64_t before = ucut_phase_slots(c, 0, r[0]) * all1 * all2 +
                         int64_t(p.dim[0].window) * ucut_phase_slots(c, 1, r[1]) * all2 +
                         int64_t(p.dim[0].window) * p.dim[1].window * ucut_phase_slots(c, 2, r[2]);
  p.filter_offset = before * c.c * c.k;
  return p;
}

/* Elements of one phase's filter F [c, window0, window1, window2, k], and of all phases' together. */
UCUT_PHASE_FN int64_t ucut_phase_filter_elements(const ucut_conv_args& c, const ucut_phase& p) {
  return int64_t(c.c) * p.dim[0].window * p.dim[1].window * p.dim[2].window * c.k;
}
UCUT_PHASE_FN int64_t ucut_phases_filter_elements(const ucut_conv_args& c) {
  return int64_t(c.c) * c.k * ucut_phase_slots(c, 0, c.stride[0]) * ucut_phase_slots(c, 1, c.stride[1]) *
         ucut_phase_slots(c, 2, c.stride[2]);
}

/* The element of W [k, t, r, s, c] that element i of phase p's filter F [c, a0, a1, a2, k] holds, or -1 (zero). */
UCUT_PHASE_FN int64_t ucut_phase_filter_source(const ucut_conv_args& c, const ucut_phase& p, int64_t i) {
  if (!p.tapped) return -1;
  const int64_t k = i % c.k;
  int64_t rest = i / c.k;
  int32_t tap[3];
  for (int d = 2; d >= 0; --d) {
    const int32_t a = int32_t(rest % p.dim[d].window);
    rest /= p.dim[d].window;
    tap[d] = p.dim[d].tap0 + (p.dim[d].window - 1 - a) * p.dim[d].tap_step;
  }
  const int64_t ch = rest;
  return (((k * c.t + tap[0]) * c.r + tap[1]) * c.s + tap[2]) * c.c + ch;
}

/* Offsets of phase p's first output element in Y [n, d, h, w, c] and first input element in x [n, z, p, q, k]. */
UCUT_PHASE_FN int64_t ucut_phase_y_offset(const ucut_conv_args& c, const ucut_phase& p) {
  return ((int64_t(p.dim[0].first) * c.h + p.dim[1].first) * c.w + p.dim[2].first) * c.c;
}
UCUT_PHASE_FN int64_t ucut_phase_x_offset(const ucut_conv_args& c, const ucut_phase& p) {
  return ((int64_t(p.dim[0].in_first) * c.p + p.dim[1].in_first) * c.q + p.dim[2].in_first) * c.k;
}

/* Why the kernel cannot run this transposed convolution phase by phase, or a null pointer. */
UCUT_PHASE_FN const char* ucut_phases_error(const ucut_conv_args& c) {
  if (ucut_phase_count(c) > UCUT_MAX_PHASES)
    return "a transposed convolution with more than 4096 output phases (stride_d x stride_h x stride_w; one kernel "
           "launch each)";
  return nullptr;
}

#endif /* UCUT_TRANSPOSED_PHASES_H */
