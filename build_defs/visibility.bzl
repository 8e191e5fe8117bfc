"""Visibility lists for the runtime side: the arrows of ARCHITECTURE.md as Bazel sees them.

    platform <- core <- {kernel, backend, loader} <- executor <- module
    the top floor, on any of the above: apps/ (the programs) and bindings/ (the app doors);
    bindings/c (the C API) links what the runner links; bindings/java and bindings/swift use
    only bindings/c
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

# The top floor: the programs (apps/) and the C API (bindings/c), which links what
# executor_runner links; the Java and Swift doors sit on the C API only.
_APPS = ["//apps:__subpackages__"]
_C_API = ["//bindings/c:__pkg__"]

# llm/ (tokenizers, generation, sessions) sits above the runtime, below the top floor: it uses
# the runtime's vocabulary (Error, Result) and, next, Module to run programs.
_LLM = ["//llm:__subpackages__"]

_USERS = {
    # toolchains/cortex_m: a port (bare-metal board support) implements the platform hooks.
    "platform": ["//runtime:__subpackages__", "//kernels:__subpackages__", "//toolchains/cortex_m:__pkg__"] + _BACKEND_RUNTIMES + _LLM + _APPS + _C_API,
    "core": ["//runtime:__subpackages__", "//kernels:__subpackages__"] + _BACKEND_RUNTIMES + _LLM + _APPS + _C_API + _AOT,
    "kernel": [
        "//runtime/executor:__subpackages__",
        "//runtime/kernel:__subpackages__",
        "//runtime/module:__pkg__",
        "//kernels:__subpackages__",
    ] + _APPS + _C_API + _AOT,
    "backend": [
        "//runtime/executor:__subpackages__",
        "//runtime/module:__pkg__",
    ] + _APPS + _BACKEND_RUNTIMES + _C_API + _AOT,
    "loader": [
        "//runtime/executor:__subpackages__",
        "//runtime/module:__pkg__",
    ] + _APPS + _C_API + _AOT,
    "executor": [
        "//runtime/bundled:__pkg__",
        "//runtime/executor:__subpackages__",
        "//runtime/module:__pkg__",
    ] + _APPS + _C_API + _AOT,
    # llm/runner runs a lowered decoder through Module (the program registers kernels).
    "module": _APPS + _C_API + _AOT + _LLM,
    "threadpool": _APPS + _BACKEND_RUNTIMES + _C_API + _AOT,
    "prim_ops": ["//runtime/executor:__subpackages__"] + _APPS + _C_API + _AOT,
    "schema": ["//runtime/executor:__subpackages__", "//runtime/bundled:__pkg__"] + _APPS + _AOT,
    # The bundled-program reader (.bpte) and its case runner: the runner, inspect and lower's bundling.
    "bundled": _APPS + _AOT,
    "kernels": ["//kernels:__subpackages__"] + _APPS + _C_API + _AOT,
    # //kernels/portable:util alone: its vectorised math also serves the kernels a backend
    # runs inside its delegate (decision 123).
    "kernel_util": ["//kernels:__subpackages__"] + _APPS + _BACKEND_RUNTIMES + _C_API + _AOT,
    # apps: the runner, and lower running the lowered program for the "-int8" recipes'
    # accuracy report.
    "backend_runtime": _APPS + _C_API,
    "c": ["//bindings/java:__pkg__", "//bindings/swift:__pkg__"],
}

def runtime_visibility(layer):
    """The packages that may depend on targets of runtime-side `layer` (a key of _USERS)."""
    return _USERS[layer] + _ANYONE_TESTING + _EXAMPLES

def backend_runtime_visibility(backend):
    """A backend's runtime half: the apps (programs run on it), the C API, its own AoT
    half (shared format headers)."""
    return _USERS["backend_runtime"] + ["//backends/%s/aot:__pkg__" % backend] + _ANYONE_TESTING + _EXAMPLES

def backend_aot_visibility():
    """A backend's AoT half: the programs (lower, and the recipes they register) that link it."""
    return _APPS + _ANYONE_TESTING

def apps_visibility():
    """A program's libraries (apps/*): the other programs, tests, benchmarks and examples.
    Nothing below the top floor may use them."""
    return _APPS + _ANYONE_TESTING + _EXAMPLES
