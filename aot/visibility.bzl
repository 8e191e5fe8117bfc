"""Visibility lists that encode the AoT house rules (ARCHITECTURE.md, CONTRIBUTING.md).

The folders of aot/ form a pipeline; a target may be used by its own stage and the stages
after it, never by an earlier one:

    ir -> frontend -> quantize -> passes -> backend -> planning -> emit -> recipe

Outside aot/, only the AoT halves of backends (backends/*/aot), the programs on the top floor
(apps/: lower, inspect, ...), tests and benchmarks may use AoT targets; runtime/, kernels/ and backends/*/runtime never do
(//tests/layering:layering_test checks this with bazel query).
"""

AOT_STAGES = ["ir", "frontend", "quantize", "passes", "backend", "planning", "emit", "recipe"]

AOT_CLIENTS = [
    "//apps:__subpackages__",
    "//backends/demo/aot:__pkg__",
    "//backends/xnnpack/aot:__pkg__",
    "//tests:__subpackages__",
    "//benchmarks:__subpackages__",
]

def aot_visibility(stage):
    """The packages that may depend on a target of `stage` (one of AOT_STAGES)."""
    first = AOT_STAGES.index(stage)
    return ["//aot/%s:__subpackages__" % s for s in AOT_STAGES[first:]] + AOT_CLIENTS
