#!/bin/bash
# The MLP's selective build, statically linked: it runs the MLP correctly, and its symbol table
# holds the kernels the MLP calls but none of the kernels it does not (the linker dropped them,
# because the generated table names only the selected functions).
set -euo pipefail
bin="tests/baremetal/mlp_selective"
"$bin"
syms="$(nm -C "$bin")"
fail=0
for want in addmm_out relu_out; do
  if ! grep -q "ember::kernels::portable::$want(" <<<"$syms"; then
    echo "FAIL: $want (called by the MLP) is missing from $bin"; fail=1
  fi
done
for unwanted in convolution_out upsample_nearest2d_vec_out cumsum_out native_dropout_out layer_norm_out permute_copy_out \
                register_kernels portable_kernels; do
  if grep -q "ember::kernels::portable::$unwanted(" <<<"$syms"; then
    echo "FAIL: $unwanted (not called by the MLP) was linked into $bin"; fail=1
  fi
done
n=$(grep -c " ember::kernels::portable::[a-z0-9_]*_out(" <<<"$syms" || true)
echo "portable *_out kernel functions linked: $n"
exit $fail
