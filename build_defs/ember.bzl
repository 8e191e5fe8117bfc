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

The lowering action runs //aot/tools:lower (built for the execution platform) on declared
inputs only, with no environment, and the .pte holds no path, time or host name, so the
action is cacheable locally and remotely and its output is byte-identical on every machine
(docs/bazel_rules.md).
"""

_LOWER = Label("//aot/tools:lower")
_EMBED = Label("//build_defs:embed_program")

def _ember_pte_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".pte")
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

    # Sorted: the command line (part of the action key) does not depend on dict order.
    for key in sorted(ctx.attr.compile_specs.keys()):
        args.add("--compile_spec=%s=%s" % (key, ctx.attr.compile_specs[key]))

    # One sample per calibration target; its files, in order, are the method's inputs.
    for target in ctx.attr.calibration:
        files = target.files.to_list()
        args.add("--calibrate=" + ",".join([f.path for f in files]))
        inputs.extend(files)

    # Hook for the debug sidecar (.etdump-style debug map) once lower can write one: declare
    # ctx.actions.declare_file(name + ".debug") here when ctx.attr.debug is set, pass its path
    # to lower, and add it to the "debug" output group below.
    if ctx.attr.debug:
        fail("ember_pte %s: debug = True needs lower's debug sidecar, which does not exist yet" % ctx.label)

    # lower prints one progress line per stage on stdout (with times); the action drops it so a
    # build shows only warnings and errors (stderr). The command line is otherwise exactly lower's.
    ctx.actions.run_shell(
        outputs = [out],
        inputs = inputs,
        tools = [ctx.executable._lower],
        command = '"$@" > /dev/null',
        arguments = [ctx.executable._lower.path, args],
        mnemonic = "EmberLower",
        progress_message = "Lowering %s to %s" % (ctx.label, out.short_path),
        use_default_shell_env = False,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

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
        "custom_ops": attr.label(
            allow_single_file = [".yaml", ".yml"],
            doc = "YAML file declaring the custom operators the model calls (lower --custom_ops)",
        ),
        "debug": attr.bool(default = False, doc = "reserved for the debug sidecar (not yet written by lower)"),
        "_lower": attr.label(default = _LOWER, executable = True, cfg = "exec"),
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
