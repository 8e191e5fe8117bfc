"""Compiler options of the portable kernels, shared by kernels/portable/BUILD.bazel and the
dtype-selective kernel libraries ember_selective_kernels builds (build_defs/ember.bzl)."""

# Kernels are compiled with -O3 even in fastbuild: GCC 12 vectorises loops only under -O3's cost
# model, and the shared case suite runs thousands of kernel calls. A size build
# (--config=size, which --config=cortex_m includes: docs/footprint.md) compiles them -Os
# instead, with EMBER_SIZE_BUILD (one GEMM tile and one depthwise path). GCC 12's -O3 raises false
# stringop-overflow warnings on loops bounded by a tensor's rank (always <= kMaxTensorDims).
KERNEL_COPTS = select({
    str(Label("//kernels/portable:size_build")): ["-Os", "-DEMBER_SIZE_BUILD=1"],
    "//conditions:default": ["-O3"],
}) + ["-Wno-stringop-overflow"]

# The portable code never fuses a multiply and an add (docs/decisions.md 61): its results are the
# same on every ISA (aarch64's gcc and x86 -march=native contract by default) and match PyTorch's
# where a product overflows. The ISA builds (gemm_avx2, gemm_avx512) fuse on purpose and repair
# overflowed outputs in util/gemm.cc.
PORTABLE_COPTS = KERNEL_COPTS + ["-ffp-contract=off"]
