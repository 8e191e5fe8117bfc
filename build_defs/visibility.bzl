"""Visibility lists for the runtime side: the arrows of ARCHITECTURE.md as Bazel sees them.

    platform <- core <- {kernel, backend, loader} <- executor <- module <- tools
    runtime/c (the C API) links what the runner links; runtime/java and runtime/swift use
    only runtime/c
    kernels/portable: core, kernel (never the executor)
    backends/*/runtime: core, backend, and the portable kernels' math library
        (//kernels/portable:util: vec_math, gemm) for the nodes a delegate runs itself
        (never aot/, never another backend, never the registered kernels)

The AoT toolchain (aot/, backends/*/aot) may use the runtime (it runs programs for
calibration and checks); the runtime side never uses the AoT: aot/visibility.bzl does not
list runtime packages, and //tests/layering:layering_test checks the dependency graph and
the #include lines. Tests and benchmarks may use anything.
"""

_ANYONE_TESTING = [
    "//tests:__subpackages__",
    "//benchmarks:__subpackages__",
]

# Examples are apps: like an app, they may use every runtime layer (examples/custom_op links
# the runner library with its own kernel).
_EXAMPLES = ["//examples:__subpackages__"]

_AOT = [
    "//aot:__subpackages__",
    "//backends/demo/aot:__pkg__",
    "//backends/xnnpack/aot:__pkg__",
]

_BACKEND_RUNTIMES = [
    "//backends/demo/runtime:__pkg__",
    "//backends/xnnpack/runtime:__pkg__",
]

# The C API (runtime/c) links what executor_runner links; the Java and Swift doors sit on it.
_C_API = ["//runtime/c:__pkg__"]

_USERS = {
    # toolchains/cortex_m: a port (bare-metal board support) implements the platform hooks.
    "platform": ["//runtime:__subpackages__", "//kernels:__subpackages__", "//toolchains/cortex_m:__pkg__"] + _BACKEND_RUNTIMES,
    # apps/common (issue #33): the programs' file libraries report errors as Error values.
    "core": ["//runtime:__subpackages__", "//kernels:__subpackages__", "//apps/common:__pkg__"] + _BACKEND_RUNTIMES + _AOT,
    "kernel": [
        "//runtime/executor:__subpackages__",
        "//runtime/kernel:__subpackages__",
        "//runtime/module:__pkg__",
        "//runtime/tools:__pkg__",
        "//kernels:__subpackages__",
    ] + _C_API + _AOT,
    "backend": [
        "//runtime/executor:__subpackages__",
        "//runtime/module:__pkg__",
        "//runtime/tools:__pkg__",
    ] + _BACKEND_RUNTIMES + _C_API + _AOT,
    "loader": [
        "//runtime/executor:__subpackages__",
        "//runtime/module:__pkg__",
        "//runtime/tools:__pkg__",
    ] + _C_API + _AOT,
    "executor": [
        "//runtime/bundled:__pkg__",
        "//runtime/executor:__subpackages__",
        "//runtime/module:__pkg__",
        "//runtime/tools:__pkg__",
    ] + _C_API + _AOT,
    "module": ["//runtime/tools:__pkg__"] + _C_API + _AOT,
    "threadpool": ["//runtime/tools:__pkg__"] + _BACKEND_RUNTIMES + _C_API + _AOT,
    "prim_ops": ["//runtime/tools:__pkg__", "//runtime/executor:__subpackages__"] + _C_API + _AOT,
    "tools": [],
    "schema": ["//runtime/executor:__subpackages__", "//runtime/bundled:__pkg__", "//runtime/tools:__pkg__"] + _AOT,
    # The bundled-program reader (.bpte) and its case runner: the runner and the AoT tools.
    "bundled": ["//runtime/tools:__pkg__"] + _AOT,
    "kernels": ["//kernels:__subpackages__", "//runtime/tools:__pkg__"] + _C_API + _AOT,
    # //kernels/portable:util alone: its vectorised math also serves the kernels a backend
    # runs inside its delegate (decision 123).
    "kernel_util": ["//kernels:__subpackages__", "//runtime/tools:__pkg__"] + _BACKEND_RUNTIMES + _C_API + _AOT,
    # aot/tools: lower runs the lowered program for the "-int8" recipes' accuracy report.
    "backend_runtime": ["//runtime/tools:__pkg__", "//aot/tools:__pkg__"] + _C_API,
    "c": ["//runtime/java:__pkg__", "//runtime/swift:__pkg__"],
}

def runtime_visibility(layer):
    """The packages that may depend on targets of runtime-side `layer` (a key of _USERS)."""
    return _USERS[layer] + _ANYONE_TESTING + _EXAMPLES

def backend_runtime_visibility(backend):
    """A backend's runtime half: runtime/tools and aot/tools (programs run on it), its own AoT
    half (shared format headers)."""
    return _USERS["backend_runtime"] + ["//backends/%s/aot:__pkg__" % backend] + _ANYONE_TESTING + _EXAMPLES

def backend_aot_visibility():
    """A backend's AoT half: the AoT tools and recipes that link it."""
    return ["//aot/tools:__subpackages__"] + _ANYONE_TESTING
