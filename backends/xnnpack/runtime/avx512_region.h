// EMBER_AVX512F_BEGIN / EMBER_AVX512F_END: every function defined between them is compiled for
// AVX-512F (x86-64 only; callers check cpuinfo before calling). GCC takes `#pragma GCC target`;
// clang ignores that pragma, so its intrinsics would refuse to inline ("requires target feature
// 'avx512f'"), and takes `#pragma clang attribute` instead (CI's fuzz build uses clang).
#pragma once

#if defined(__clang__)
#define EMBER_AVX512F_BEGIN \
  _Pragma("clang attribute push(__attribute__((target(\"avx512f\"))), apply_to = function)")
#define EMBER_AVX512F_END _Pragma("clang attribute pop")
#else
#define EMBER_AVX512F_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f\")")
#define EMBER_AVX512F_END _Pragma("GCC pop_options")
#endif
