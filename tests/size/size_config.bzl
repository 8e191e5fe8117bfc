"""size_configured_binary: a cc_binary rebuilt, with its whole dependency tree, the way a
size-conscious app builds the runtime: -c opt, gcc -Os, no exceptions, no RTTI, no unwind
tables, every function in its own section and the link dropping unreferenced ones. The
size gate measures the result (size_gate_test.sh), so the figure does not depend on the
configuration `bazel test` runs in."""

_FLAGS = [
    "-Os",
    "-fno-exceptions",
    "-fno-rtti",
    "-fno-asynchronous-unwind-tables",
    "-ffunction-sections",
    "-fdata-sections",
]

def _size_transition_impl(settings, attr):
    return {
        "//command_line_option:compilation_mode": "opt",
        "//command_line_option:copt": settings["//command_line_option:copt"] + _FLAGS,
        "//command_line_option:linkopt": settings["//command_line_option:linkopt"] + ["-Wl,--gc-sections"],
    }

_size_transition = transition(
    implementation = _size_transition_impl,
    inputs = ["//command_line_option:copt", "//command_line_option:linkopt"],
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
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
