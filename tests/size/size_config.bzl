"""size_configured_binary: a cc_binary rebuilt, with its whole dependency tree, the way a
size-conscious app builds the runtime: -c opt, gcc -Os, no exceptions, no RTTI, no unwind
tables, every function in its own section and the link dropping unreferenced ones; on aarch64
also no synchronous unwind tables and 4 KiB segment alignment in the file. The size gate
measures the result (size_gate_test.sh), so the figure does not depend on the configuration
`bazel test` runs in.

`messages = False` compiles error-message and log text out (-DEMBER_NO_MESSAGES, codes stay:
runtime/core/diagnostics.h); `verifier = False` leaves the FlatBuffers verifier out
(-DEMBER_NO_FLATBUFFER_VERIFIER: a runtime for trusted programs, runtime/executor/pte_container.h).
"""

_FLAGS = [
    "-Os",
    "-fno-exceptions",
    "-fno-rtti",
    "-fno-asynchronous-unwind-tables",
    "-ffunction-sections",
    "-fdata-sections",
]

# aarch64 gcc emits .eh_frame by default (-funwind-tables) and GNU ld aligns its segments to
# 64 KiB in the file: a size build turns both off (docs/footprint.md).
_AARCH64_COPTS = ["-fno-unwind-tables"]
_AARCH64_LINKOPTS = ["-Wl,-z,max-page-size=4096"]

def _size_transition_impl(settings, attr):
    copts = list(_FLAGS)
    linkopts = ["-Wl,--gc-sections"]
    if settings["//command_line_option:cpu"] == "aarch64":
        copts += _AARCH64_COPTS
        linkopts += _AARCH64_LINKOPTS
    if not attr.messages:
        copts.append("-DEMBER_NO_MESSAGES=1")
    if not attr.verifier:
        copts.append("-DEMBER_NO_FLATBUFFER_VERIFIER=1")
    return {
        "//command_line_option:compilation_mode": "opt",
        "//command_line_option:copt": settings["//command_line_option:copt"] + copts,
        "//command_line_option:linkopt": settings["//command_line_option:linkopt"] + linkopts,
    }

_size_transition = transition(
    implementation = _size_transition_impl,
    inputs = [
        "//command_line_option:copt",
        "//command_line_option:cpu",
        "//command_line_option:linkopt",
    ],
    outputs = [
        "//command_line_option:compilation_mode",
        "//command_line_option:copt",
        "//command_line_option:linkopt",
    ],
)

def _impl(ctx):
    binary = ctx.attr.binary
    if type(binary) == "list":  # a transitioned attribute is a list in some Bazel versions
        binary = binary[0]
    src = binary[DefaultInfo].files_to_run.executable
    out = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = out, target_file = src)
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

size_configured_binary = rule(
    implementation = _impl,
    attrs = {
        "binary": attr.label(cfg = _size_transition, mandatory = True, executable = False),
        "messages": attr.bool(default = True, doc = "keep error-message and log text"),
        "verifier": attr.bool(default = True, doc = "keep the FlatBuffers verifier"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
