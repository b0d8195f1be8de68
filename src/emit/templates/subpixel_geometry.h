/* emit/templates/subpixel_geometry.h — how the SM90 kernel runs a strided transposed convolution (a sub-pixel
 * convolution). Compiled into the ucutlass tools (the harness checks the geometry it implies) and pasted verbatim
 * into every SM90 transposed-convolution kernel, so both sides compute the same numbers.
 *
 * Along one spatial dimension the transposed convolution adds x[i] * W[tap] into y[o] where
 * o + pad = i * stride + tap * dilation. Write u = o + pad = q * stride + r: output phase r (0 <= r < stride) of row q
 * takes the taps with tap * dilation = r + m * stride (m >= 0) from x[q - m]. So every phase is a stride-1
 * convolution over x with a window of `window` = floor(dilation * (filter - 1) / stride) + 1 rows, and all phases
 * together are ONE stride-1 forward convolution whose output channels are (phase, c): the kernel convolves x with a
 * filter of `phases` * c output channels (up to stride^dims phases; zero where a phase has no tap) into a scratch
 * tensor of `extent` rows per dimension, and a copy scatters its phases into y (pixel shuffle). Window slot a holds m = window - 1 - a, so the
 * forward convolution reads x[j + first - (window - 1) + a] for output row j = q - first: padding
 * pad_lo = window - 1 - first below and pad_hi = extent - in - pad_lo + window - 1 above.
 * With dilation, some residues r have no tap (stride 2, dilation 2: every odd row of y is the epilogue of zero). When
 * nothing in the epilogue varies per pixel (no residual C), such phases are all equal, so the kernel computes only the
 * phases whose residues all have a tap (`live` per dimension, in order) and one channel set that stands for every
 * other phase (`shared`): fewer channels to compute and copy.
 * Plain C++ (no CUDA headers); ucut_conv_args is the kernel ABI's (kernel_abi.h). */
#ifndef UCUT_SUBPIXEL_GEOMETRY_H
#define UCUT_SUBPIXEL_GEOMETRY_H

#if defined(__CUDACC__)
#define UCUT_SUBPIXEL_FN __host__ __device__ inline
#else
#define UCUT_SUBPIXEL_FN inline
#endif

/* Strides up to this run as a sub-pixel convolution (the per-residue tables below). */
#define UCUT_SUBPIXEL_MAX_STRIDE 16

/* Per spatial dimension, in [d, h, w] order (unused dimensions: stride 1, window 1, extent 1, no padding). */
typedef struct ucut_subpixel {
  int32_t stride[3];   /* residues along the dimension */
  int32_t window[3];   /* rows of x each output row reads */
  int32_t first[3];    /* q of the first output row: floor(pad / stride) */
  int32_t extent[3];   /* output rows of the forward convolution */
  int32_t pad_lo[3], pad_hi[3];
  int32_t live[3];     /* residues the kernel computes: those with a tap, or all of them when not compacted */
  int8_t slot[3][UCUT_SUBPIXEL_MAX_STRIDE];     /* residue -> its index among the live ones, -1 if not live */
  int8_t residue[3][UCUT_SUBPIXEL_MAX_STRIDE];  /* index among the live ones -> residue */
  int32_t shared;      /* 1: the last channel set stands for every phase with a residue that is not live */
  int32_t phases;      /* live[0] * live[1] * live[2] + shared: the kernel's output channels are phases * c */
} ucut_subpixel;

/* A transposed convolution (ucut_conv_args in forward terms: y is X [n, d, h, w, c], x is Y [n, z, p, q, k]) runs as
 * a sub-pixel convolution when any stride exceeds 1. */
UCUT_SUBPIXEL_FN int ucut_is_subpixel(const ucut_conv_args& c) {
  return c.stride[0] > 1 || c.stride[1] > 1 || c.stride[2] > 1;
}

/* The geometry; `compact` leaves out the phases without a tap (only for epilogues without per-pixel inputs). */
UCUT_SUBPIXEL_FN ucut_subpixel ucut_subpixel_of(const ucut_conv_args& c, int compact) {
  ucut_subpixel g;
  const int32_t out[3] = {c.d, c.h, c.w}, in[3] = {c.z, c.p, c.q}, filter[3] = {c.t, c.r, c.s};
  g.shared = 0;
  for (int i = 0; i < 3; ++i) {
    const int32_t s = c.stride[i];
    g.stride[i] = s;
    g.window[i] = c.dilation[i] * (filter[i] - 1) / s + 1;
    g.first[i] = c.pad[i] / s;
    g.extent[i] = (out[i] - 1 + c.pad[i]) / s - g.first[i] + 1;
    g.pad_lo[i] = g.window[i] - 1 - g.first[i];
    g.pad_hi[i] = g.extent[i] - in[i] - g.pad_lo[i] + g.window[i] - 1;
    g.live[i] = 0;
    for (int32_t r = 0; r < UCUT_SUBPIXEL_MAX_STRIDE; ++r) g.slot[i][r] = g.residue[i][r] = -1;
    for (int32_t r = 0; r < s && r < UCUT_SUBPIXEL_MAX_STRIDE; ++r) {
      bool tapped = !compact;
      for (int32_t tap = 0; tap < filter[i] && !tapped; ++tap) tapped = tap * c.dilation[i] % s == r;
      if (!tapped) continue;
      g.slot[i][r] = int8_t(g.live[i]);
      g.residue[i][g.live[i]++] = int8_t(r);
    }
    if (g.live[i] < s) g.shared = 1;
  }
  g.phases = g.live[0] * g.live[1] * g.live[2] + g.shared;
  return g;
}

/* The channel set of the phase with residues r[3]. */
UCUT_SUBPIXEL_FN int32_t ucut_subpixel_phase(const ucut_subpixel& g, const int32_t r[3]) {
  int32_t phase = 0;
  for (int i = 0; i < 3; ++i) {
    if (g.slot[i][r[i]] < 0) return g.phases - 1;
    phase = phase * g.live[i] + g.slot[i][r[i]];
  }
  return phase;
}

/* The filter tap that phase r, window slot a reads along dimension i, or -1 (that slot multiplies zero). */
UCUT_SUBPIXEL_FN int32_t ucut_subpixel_tap(const ucut_subpixel& g, const ucut_conv_args& c, int i, int32_t r,
                                           int32_t a) {
  const int32_t filter[3] = {c.t, c.r, c.s};
  const int32_t reach = r + (g.window[i] - 1 - a) * g.stride[i];  /* tap * dilation */
  if (reach % c.dilation[i] != 0) return -1;
  const int32_t tap = reach / c.dilation[i];
  return tap < filter[i] ? tap : -1;
}

/* Elements of the sub-pixel filter F [(phase, ch), window[0], window[1], window[2], k]. */
UCUT_SUBPIXEL_FN int64_t ucut_subpixel_filter_elements(const ucut_subpixel& g, const ucut_conv_args& c) {
  return int64_t(g.phases) * c.c * g.window[0] * g.window[1] * g.window[2] * c.k;
}

/* The element of W [k, t, r, s, c] that element i of F holds, or -1 (a window slot without a tap: zero). */
UCUT_SUBPIXEL_FN int64_t ucut_subpixel_filter_source(const ucut_subpixel& g, const ucut_conv_args& c, int64_t i) {
  const int64_t k = i % c.k;
  int64_t rest = i / c.k;
  int32_t a[3], tap[3];
  for (int d = 2; d >= 0; --d) {
    a[d] = int32_t(rest % g.window[d]);
    rest /= g.window[d];
  }
  const int32_t ch = int32_t(rest % c.c);
  int32_t phase = int32_t(rest / c.c);
  if (g.shared && phase == g.phases - 1) return -1;
  for (int d = 2; d >= 0; --d) {
    tap[d] = ucut_subpixel_tap(g, c, d, g.residue[d][phase % g.live[d]], a[d]);
    phase /= g.live[d];
    if (tap[d] < 0) return -1;
  }
  return (((k * c.t + tap[0]) * c.r + tap[1]) * c.s + tap[2]) * c.c + ch;
}

/* Where output element (n, o[3], ch) of y lives in the forward convolution's output [n, extent..., phases * c]. */
UCUT_SUBPIXEL_FN int64_t ucut_subpixel_source(const ucut_subpixel& g, const ucut_conv_args& c, int64_t n,
                                              const int32_t o[3], int32_t ch) {
  int64_t row = n;
  int32_t r[3];
  for (int i = 0; i < 3; ++i) {
    const int32_t u = o[i] + c.pad[i];
    row = row * g.extent[i] + (u / g.stride[i] - g.first[i]);
    r[i] = u % g.stride[i];
  }
  return (row * g.phases + ucut_subpixel_phase(g, r)) * c.c + ch;
}

/* The copy between y and the forward convolution's output runs along lines: line (n, j0, r0, j1, r1) of the output
 * (a row of its phases along w) is row (n, o0, o1) of y, its element e = (j2 * stride[2] + r2) * c + ch sits at
 * o2 = origin + e / c, where origin = first[2] * stride[2] - pad[2], and element e of the line is element e of y's
 * row from origin on. */
typedef struct ucut_subpixel_line {
  int64_t big;     /* offset of the line's element 0 (j2 = 0, r2 = 0, ch = 0) in the forward convolution's output */
  int64_t y;       /* offset in y of the line's element 0 (o2 = origin; outside the row when origin < 0) */
  int32_t origin;  /* o2 of element 0 */
  int32_t inside;  /* rows o0 and o1 exist in y */
  int32_t outer;   /* slot[0][r0] * live[1] + slot[1][r1], or -1 when r0 or r1 is not live */
} ucut_subpixel_line;

UCUT_SUBPIXEL_FN int64_t ucut_subpixel_line_count(const ucut_subpixel& g, const ucut_conv_args& c) {
  return int64_t(c.n) * g.extent[0] * g.stride[0] * g.extent[1] * g.stride[1];
}

UCUT_SUBPIXEL_FN int64_t ucut_subpixel_line_length(const ucut_subpixel& g, const ucut_conv_args& c) {
  return int64_t(g.extent[2]) * g.stride[2] * c.c;
}

UCUT_SUBPIXEL_FN ucut_subpixel_line ucut_subpixel_line_at(const ucut_subpixel& g, const ucut_conv_args& c,
                                                          int64_t line) {
  const int32_t r1 = int32_t(line % g.stride[1]);
  line /= g.stride[1];
  const int32_t j1 = int32_t(line % g.extent[1]);
  line /= g.extent[1];
  const int32_t r0 = int32_t(line % g.stride[0]);
  line /= g.stride[0];
  const int32_t j0 = int32_t(line % g.extent[0]);
  const int64_t n = line / g.extent[0];
  const int32_t o0 = (j0 + g.first[0]) * g.stride[0] + r0 - c.pad[0];
  const int32_t o1 = (j1 + g.first[1]) * g.stride[1] + r1 - c.pad[1];
  ucut_subpixel_line l;
  l.origin = g.first[2] * g.stride[2] - c.pad[2];
  l.inside = o0 >= 0 && o0 < c.d && o1 >= 0 && o1 < c.h;
  l.outer = g.slot[0][r0] < 0 || g.slot[1][r1] < 0 ? -1 : g.slot[0][r0] * g.live[1] + g.slot[1][r1];
  l.big = ((n * g.extent[0] + j0) * g.extent[1] + j1) * g.extent[2] * g.phases * c.c;
  l.y = (((n * c.d + o0) * c.h + o1) * c.w + l.origin) * c.c;
  return l;
}

/* Element e's offset from line l's element 0 in the forward convolution's output. */
UCUT_SUBPIXEL_FN int64_t ucut_subpixel_line_big(const ucut_subpixel& g, const ucut_conv_args& c,
                                                const ucut_subpixel_line& l, int32_t e) {
  const int32_t u = e / c.c, ch = e - u * c.c, j2 = u / g.stride[2], r2 = u - j2 * g.stride[2];
  const int32_t phase = l.outer < 0 || g.slot[2][r2] < 0 ? g.phases - 1 : l.outer * g.live[2] + g.slot[2][r2];
  return (int64_t(j2) * g.phases + phase) * c.c + ch;
}

/* Why the sub-pixel convolution cannot run this geometry (a stride beyond the tables, the forward convolution would
 * need negative padding, or rows too long for the copy), or a null pointer. */
UCUT_SUBPIXEL_FN const char* ucut_subpixel_error(const ucut_subpixel& g, const ucut_conv_args& c) {
  if (ucut_subpixel_line_length(g, c) > 0x7fffffff)
    return "a strided transposed convolution whose output rows hold 2^31 elements or more (the pixel shuffle indexes "
           "them in 32 bits)";
  for (int i = 0; i < 3; ++i) {
    if (g.stride[i] > UCUT_SUBPIXEL_MAX_STRIDE)
      return "a transposed convolution with a stride above 16 (the sub-pixel convolution's limit)";
    if (g.pad_lo[i] < 0)
      return "a strided transposed convolution padded by stride x window or more (window = dilation x (filter - 1) / "
             "stride + 1): its first output row lies past the sub-pixel window";
    if (g.pad_hi[i] < 0)
      return "a strided transposed convolution whose padding crops rows its input's last row writes (pad beyond "
             "dilation x (filter - 1))";
  }
  return nullptr;
}

#endif /* UCUT_SUBPIXEL_GEOMETRY_H */
