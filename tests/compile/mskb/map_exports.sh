#!/bin/sh
# tests/compile/mskb/map_exports.sh UCUTLASS SOURCE_DIR OUT CACHE — `export --mskb` of every examples/mskb/ spec as its
# launcher (<precision>/<name>.cu, MSKB's layout), then `bench mskb --build-only` builds them as candidates beside the
# naive and vendor launchers of their tasks: what the GPU run (`bench mskb --impl OUT/impl`) starts from.
set -eu
ucutlass=$1 src=$2 out=$3 cache=$4
rm -rf "$out/impl"
for spec in "$src"/examples/mskb/*.ucut; do
  name=$(basename "$spec" .ucut)
  case $name in *_bf16) precision=bf16 ;; *) precision=fp32 ;; esac
  "$ucutlass" export --mskb "$name" "$spec" -o "$out/impl/$precision"
done
"$ucutlass" bench mskb --build-only --impl "$out/impl" --task RELU leaky_RELU elu selu gelu sigmoid row_tanh \
  vector_add matrix_scalar_mul SwiGLU silu_and_mul hinge_loss matrix_copy \
  spmv_csr spmv_coo spmv_csc spmv_ell spmm_csr spmm_coo spmm_csc spmm_ell \
  dot_product MSE_loss cross_entropy_loss monte_carlo_int simpson_int matrix_vector_mul softmax layer_norm rms_norm \
  batch_norm prefix_sum matrix_transpose reverse_array stencil_2d stencil_3d conv_1d conv_2d max_pooling_2d \
  sorting top_k FFT softmax_attention rope --jobs 2 \
  --suite "$src/suites/mskb" --cache-dir "$cache" --out "$out/report"
