"""Ember's Bazel rules: lowering a torch.export .pt2 to a .pte as an ordinary build action.

Load them from your BUILD files (in this workspace as //build_defs:ember.bzl, from another
workspace that declares Ember as `@ember` as @ember//build_defs:ember.bzl):

    load("@ember//build_defs:ember.bzl", "ember_embedded_program", "ember_pte")

    ember_pte(
        name = "mlp",                     # writes mlp.pte
        src = "mlp.pt2",
        recipe = "xnnpack",
        compile_specs = {"xnnpack.constants": "inline"},
    )

    ember_embedded_program(
        name = "mlp_program",             # a cc_library: mlp_program.h declares the bytes
        pte = ":mlp",
    )

The lowering action runs //apps/lower on declared inputs only, with no environment, and
the .pte holds no path, time or host name, so the action is cacheable locally and remotely and
its output is byte-identical on every machine (docs/build_servers.md).

Which `lower` runs: the one built in the target configuration when the target CPU is the build
machine's (the same binary the rest of the build and its tests use, so a cold build compiles
the AoT once, not twice), and the one built in the exec configuration when cross-compiling
(--cpu=aarch64: a target-configured lower could not run on the build machine).
"""

load("//kernels/portable:copts.bzl", "PORTABLE_COPTS")

# The CPU a configuration builds for; probed in the exec configuration to learn the build
# machine's.
_CpuInfo = provider(doc = "TARGET_CPU of the configuration", fields = ["cpu"])

def _cpu_probe_impl(ctx):
    return [_CpuInfo(cpu = ctx.var["TARGET_CPU"])]

cpu_probe = rule(
    implementation = _cpu_probe_impl,
    doc = "Reports its configuration's TARGET_CPU (//build_defs:cpu_probe, for ember_pte).",
)

_CPU_PROBE = Label("//build_defs:cpu_probe")

_LOWER = Label("//apps/lower")
_EMBED = Label("//build_defs:embed_program")

def _lower_for(ctx):
    """The lower binary to run: target-configured unless the target CPU is not the build
    machine's (a cross build), when only the exec-configured one can run."""
    if ctx.attr._exec_cpu[_CpuInfo].cpu == ctx.var["TARGET_CPU"]:
        return ctx.executable._lower
    return ctx.executable._lower_exec

def _ember_pte_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".pte")
    lower = _lower_for(ctx)
    args = ctx.actions.args()
    inputs = []
    if ctx.file.src and ctx.attr.methods:
        fail("ember_pte %s: give either src (one method, 'forward') or methods, not both" % ctx.label)
    if not ctx.file.src and not ctx.attr.methods:
        fail("ember_pte %s: src or methods is required" % ctx.label)
    if ctx.file.src:
        args.add(ctx.file.src)
        inputs.append(ctx.file.src)
    for target, method in ctx.attr.methods.items():
        files = target.files.to_list()
        if len(files) != 1:
            fail("ember_pte %s: methods key %s must be one .pt2 file" % (ctx.label, target.label))
        args.add("--method=%s=%s" % (method, files[0].path))
        inputs.append(files[0])
    args.add("-o", out)
    args.add("--recipe", ctx.attr.recipe)
    if ctx.attr.memory_planner:
        args.add("--memory_planner", ctx.attr.memory_planner)
    if ctx.file.custom_ops:
        args.add("--custom_ops", ctx.file.custom_ops)
        inputs.append(ctx.file.custom_ops)
    for p in ctx.attr.passes:
        args.add("--pass=" + p)
    for bound in ctx.attr.max_dims:
        args.add("--max_dim=" + bound)

    # Sorted: the command line (part of the action key) does not depend on dict order.
    for key in sorted(ctx.attr.compile_specs.keys()):
        args.add("--compile_spec=%s=%s" % (key, ctx.attr.compile_specs[key]))

    # One sample per calibration target; its files, in order, are the method's inputs.
    for target in ctx.attr.calibration:
        files = target.files.to_list()
        args.add("--calibrate=" + ",".join([f.path for f in files]))
        inputs.extend(files)

    # The provenance sidecar (lower --debug_out, docs/profiling.md): NAME.ptdbg, in the "debug"
    # output group so that the default output stays the one .pte ember_embedded_program takes.
    outputs = [out]
    groups = {}
    if ctx.attr.debug:
        if ctx.attr.methods:
            fail("ember_pte %s: debug = True works with src only (lower --debug_out has no --method mode yet)" % ctx.label)
        sidecar = ctx.actions.declare_file(ctx.label.name + ".ptdbg")
        args.add("--debug_out", sidecar)
        outputs.append(sidecar)
        groups["debug"] = depset([sidecar])

    # lower prints one progress line per stage on stdout (with times); the action drops it so a
    # build shows only warnings and errors (stderr). The command line is otherwise exactly lower's.
    ctx.actions.run_shell(
        outputs = outputs,
        inputs = inputs,
        tools = [lower],
        command = '"$@" > /dev/null',
        arguments = [lower.path, args],
        mnemonic = "EmberLower",
        progress_message = "Lowering %s to %s" % (ctx.label, out.short_path),
        use_default_shell_env = False,
    )
    return [
        DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out])),
        OutputGroupInfo(**groups),
    ]

ember_pte = rule(
    implementation = _ember_pte_impl,
    doc = "Lowers a torch.export .pt2 (or several, one per method) to NAME.pte with lower.",
    attrs = {
        "src": attr.label(allow_single_file = [".pt2"], doc = "the .pt2 of method 'forward'"),
        "methods": attr.label_keyed_string_dict(
            allow_files = [".pt2"],
            doc = "multi-method program: {\"enc.pt2\": \"encode\", ...} (lower --method NAME=FILE)",
        ),
        "recipe": attr.string(default = "portable", doc = "lower --recipe (portable, xnnpack, demo, *-int8)"),
        "passes": attr.string_list(doc = "registered user passes, in order (lower --pass)"),
        "compile_specs": attr.string_dict(doc = "KEY: VALUE for the recipe's partitioners (lower --compile_spec)"),
        "calibration": attr.label_list(
            allow_files = True,
            doc = "-int8 recipes: one sample per target, its files (in order) the method's raw inputs",
        ),
        "memory_planner": attr.string(doc = "lower --memory_planner (greedy when empty)"),
        "max_dims": attr.string_list(
            doc = "bounds for data-dependent sizes, \"u0=N\" or \"N\" (lower --max_dim, docs/aot.md)",
        ),
        "custom_ops": attr.label(
            allow_single_file = [".yaml", ".yml"],
            doc = "YAML file declaring the custom operators the model calls (lower --custom_ops)",
        ),
        "debug": attr.bool(
            default = False,
            doc = "also write NAME.ptdbg (lower --debug_out), in output group \"debug\"",
        ),
        # Both are analysed; only the one _lower_for picks is built.
        "_lower": attr.label(default = _LOWER, executable = True, cfg = "target"),
        "_lower_exec": attr.label(default = _LOWER, executable = True, cfg = "exec"),
        "_exec_cpu": attr.label(default = _CPU_PROBE, cfg = "exec"),
    },
)

def _embed_impl(ctx):
    src = ctx.outputs.src
    hdr = ctx.outputs.hdr
    pte = ctx.file.pte
    args = ctx.actions.args()
    args.add("--in", pte)
    args.add("--cc", src)
    args.add("--h", hdr)
    args.add("--symbol", ctx.attr.symbol)
    args.add("--alignment", str(ctx.attr.alignment))

    # The .cc includes its header by its workspace-relative path (as users do).
    args.add("--include", _include_path(hdr))
    ctx.actions.run(
        outputs = [src, hdr],
        inputs = [pte],
        executable = ctx.executable._embed,
        arguments = [args],
        mnemonic = "EmberEmbed",
        progress_message = "Embedding %s as %s" % (pte.short_path, ctx.attr.symbol),
    )
    return [DefaultInfo(files = depset([src, hdr]))]

def _include_path(hdr):
    # "pkg/name.h", or "external/repo/pkg/name.h" seen from another workspace: strip to the
    # path relative to the repository root, which is how cc_library exposes it.
    path = hdr.short_path
    if path.startswith("../"):
        path = path.split("/", 2)[2]
    return path

_ember_embed = rule(
    implementation = _embed_impl,
    # Predeclared so that the cc_library can name them as :NAME.cc and :NAME.h.
    outputs = {"src": "%{base}.cc", "hdr": "%{base}.h"},
    attrs = {
        "pte": attr.label(allow_single_file = [".pte"], mandatory = True),
        "base": attr.string(mandatory = True),
        "symbol": attr.string(mandatory = True),
        "alignment": attr.int(default = 128),
        "_embed": attr.label(default = _EMBED, executable = True, cfg = "exec"),
    },
)

def _symbol_for(name):
    out = ""
    for c in name.elems():
        out += c if (c.isalnum() or c == "_") else "_"
    return "ember_program_" + out

def ember_embedded_program(name, pte, symbol = None, alignment = 128, visibility = None, **kwargs):
    """A cc_library holding the bytes of `pte` as an aligned const array (read-only data).

    The header NAME.h (include it as "PACKAGE/NAME.h") declares, with C linkage:

        extern const uint8_t SYMBOL[];      // aligned to `alignment` bytes
        extern const size_t SYMBOL_size;

    SYMBOL defaults to "ember_program_" + NAME (other characters than [A-Za-z0-9_] become _).
    `alignment` (a power of two, at least 16) defaults to 128, the segment alignment lower
    writes, so delegate and constant segments keep their file alignment in memory. Load it with
    BufferDataLoader(SYMBOL, SYMBOL_size): no copy, no file system.
    """
    if alignment < 16 or (alignment & (alignment - 1)) != 0:
        fail("ember_embedded_program %s: alignment must be a power of two >= 16, got %d" % (name, alignment))
    gen = name + "_gen"
    _ember_embed(
        name = gen,
        pte = pte,
        base = name,
        symbol = symbol or _symbol_for(name),
        alignment = alignment,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags", []),
    )
    native.cc_library(
        name = name,
        srcs = [":" + name + ".cc"],
        hdrs = [":" + name + ".h"],
        visibility = visibility,
        **kwargs
    )

_SELECTIVE = Label("//apps/selective_kernels")
_KERNEL_TABLE = Label("//kernels/portable:register_kernels.cc")
_PRIM_OPS = [Label("//runtime/kernel/prim_ops:prim_ops.cc")]
_SELECTIVE_SRCS = Label("//kernels/portable:selective_srcs")
_SELECTIVE_HEADERS = Label("//kernels/portable:selective_headers")
_SELECTIVE_DEPS = [
    Label("//kernels/portable:selective_build"),
    Label("//runtime/kernel"),
    Label("//runtime/core"),
]

def _selective_impl(ctx):
    gen = ctx.executable._gen if ctx.attr._exec_cpu[_CpuInfo].cpu == ctx.var["TARGET_CPU"] else ctx.executable._gen_exec
    args = ctx.actions.args()
    args.add("--table", ctx.file._table)
    for f in ctx.files._prim_ops:
        args.add("--provided", f)
    for op in ctx.attr.provided_ops:
        args.add("--provided_op", op)
    for f in ctx.files.ptes:
        args.add("--pte", f)
    for f in ctx.files.op_lists:
        args.add("--op_list", f)
    for op in ctx.attr.ops:
        args.add("--op", op)
    args.add("--namespace", ctx.attr.namespace)
    args.add("--header", _include_path(ctx.outputs.hdr))
    args.add("--out_cc", ctx.outputs.src)
    args.add("--out_h", ctx.outputs.hdr)
    args.add("--out_dtypes", ctx.outputs.dtypes_hdr)
    for d in ctx.attr.dtypes:
        args.add("--dtype", d)
    ctx.actions.run(
        outputs = [ctx.outputs.src, ctx.outputs.hdr, ctx.outputs.dtypes_hdr],
        inputs = [ctx.file._table] + ctx.files._prim_ops + ctx.files.ptes + ctx.files.op_lists,
        executable = gen,
        arguments = [args],
        mnemonic = "EmberSelectiveKernels",
        progress_message = "Selecting the kernels of %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([ctx.outputs.src, ctx.outputs.hdr, ctx.outputs.dtypes_hdr]))]

_ember_selective_gen = rule(
    implementation = _selective_impl,
    outputs = {"src": "%{base}.cc", "hdr": "%{base}.h", "dtypes_hdr": "%{base}_dtypes.h"},
    attrs = {
        "base": attr.string(mandatory = True),
        "dtypes": attr.string_list(),
        "ptes": attr.label_list(allow_files = [".pte"]),
        "op_lists": attr.label_list(allow_files = True),
        "ops": attr.string_list(),
        "provided_ops": attr.string_list(),
        "namespace": attr.string(mandatory = True),
        "_table": attr.label(default = _KERNEL_TABLE, allow_single_file = True),
        "_prim_ops": attr.label_list(default = _PRIM_OPS, allow_files = True),
        # As ember_pte's lower: the target-configured generator unless cross-compiling.
        "_gen": attr.label(default = _SELECTIVE, executable = True, cfg = "target"),
        "_gen_exec": attr.label(default = _SELECTIVE, executable = True, cfg = "exec"),
        "_exec_cpu": attr.label(default = _CPU_PROBE, cfg = "exec"),
    },
)

def ember_selective_kernels(name, ptes = [], op_lists = [], ops = [], provided_ops = [], namespace = None, dtype_selective = False, dtypes = [], visibility = None, **kwargs):
    """A cc_library registering only the portable kernels that `ptes` call (selective build).

    The operators come from the .pte files (every method's KernelCall operators; delegate
    calls need no kernel), from `op_lists` (files: `inspect --json` output, a JSON array of
    names, or one name per line) and from `ops` (names, e.g. "aten::add.out"). Prim ops
    (register_prim_ops) and `provided_ops` (kernels the app registers itself) are not taken
    from the kernel library; any other operator the library lacks fails the build, named.

    The header NAME.h (include it as "PACKAGE/NAME.h") declares, in namespace `namespace`
    (default "ember_selected::" + NAME, non-identifier characters as _):

        ember::runtime::Error register_kernels(ember::runtime::KernelRegistry& registry);
        ember::runtime::Span<const ember::runtime::Kernel> kernels();

    The generated table names only the selected kernel functions, so a statically linked
    binary carries no other kernel (docs/build_servers.md).

    dtype_selective = True selects by dtype as well (selective build by (operator, dtype)): the
    kernel sources are compiled here, for this selection, with the generated NAME_dtypes.h
    (the (operator, dtypes) pairs of the programs; `dtypes`, e.g. ["Long"], adds dtypes), so each
    kernel's dtype dispatch instantiates only the selected dtypes and an unselected dtype fails
    with the kernel's "unsupported dtype" error. Such a library defines the kernel functions
    itself: link one per binary, and not beside //kernels/portable.
    """
    ns = namespace or ("ember_selected::" + _symbol_for(name)[len("ember_program_"):])
    _ember_selective_gen(
        name = name + "_gen",
        base = name,
        ptes = ptes,
        op_lists = op_lists,
        ops = ops,
        provided_ops = provided_ops,
        dtypes = dtypes,
        namespace = ns,
        visibility = ["//visibility:private"],
        tags = kwargs.get("tags", []),
    )
    deps = [str(d) for d in _SELECTIVE_DEPS]
    if dtype_selective:
        selection = native.package_name() + "/" + name + "_dtypes.h"
        native.cc_library(
            name = name + "_kernel_code",
            srcs = [str(_SELECTIVE_SRCS)],
            hdrs = [":" + name + "_dtypes.h"],
            # Single quotes: copts are tokenized like a shell, and the macro's value is a string.
            copts = PORTABLE_COPTS + ["'-DEMBER_DTYPE_SELECTION_HEADER=\"%s\"'" % selection],
            deps = [str(_SELECTIVE_HEADERS)],
            visibility = ["//visibility:private"],
            **kwargs
        )
        deps = [":" + name + "_kernel_code", str(_SELECTIVE_HEADERS), str(Label("//runtime/kernel")), str(Label("//runtime/core"))]
    native.cc_library(
        name = name,
        srcs = [":" + name + ".cc"],
        hdrs = [":" + name + ".h"],
        deps = deps,
        visibility = visibility,
        **kwargs
    )
