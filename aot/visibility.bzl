"""Visibility lists that encode the AoT house rules (ARCHITECTURE.md, CONTRIBUTING.md).

The folders of aot/ form a pipeline; a target may be used by its own stage and the stages
after it, never by an earlier one:

    ir -> frontend -> quantize -> passes -> backend -> planning -> emit -> recipe -> tools

Outside aot/, only the AoT halves of backends (backends/*/aot), tests and benchmarks may
use AoT targets; runtime/, kernels/ and backends/*/runtime never do
(//tests/layering:layering_test checks this with bazel query).
"""

AOT_STAGES = ["ir", "frontend", "quantize", "passes", "backend", "planning", "emit", "recipe", "tools"]

AOT_CLIENTS = [
    "//backends/demo/aot:__pkg__",
    "//backends/xnnpack/aot:__pkg__",
    "//tests:__subpackages__",
    "//benchmarks:__subpackages__",
]

def aot_visibility(stage):
    """The packages that may depend on a target of `stage` (one of AOT_STAGES)."""
    first = AOT_STAGES.index(stage)
    return ["//aot/%s:__subpackages__" % s for s in AOT_STAGES[first:]] + AOT_CLIENTS
