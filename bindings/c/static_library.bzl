"""static_library: one .a holding every object of a cc_library and its cc deps.

Bazel 4 has no rule for a self-contained static library (a cc_library's own .a holds only
its own sources), so this merges the static archives the linker would use: each archive is
extracted into its own directory (object names are prefixed with the archive's index so
that equal basenames from different packages cannot collide) and re-archived. System
libraries named by linkopts (-lXNNPACK, ...) stay outside, as they would for any .a.
"""

def _static_library_impl(ctx):
    archives = []
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for lib in linker_input.libraries:
                archive = lib.pic_static_library or lib.static_library
                if archive != None and archive not in archives:
                    archives.append(archive)
    out = ctx.outputs.out
    ctx.actions.run_shell(
        inputs = archives,
        outputs = [out],
        command = """
set -eu
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for a in "$@"; do
  i=$((i + 1))
  mkdir "$tmp/$i"
  (cd "$tmp/$i" && ar x "$root/$a")
  for f in "$tmp/$i"/*; do
    [ -e "$f" ] || continue
    mv "$f" "$tmp/$i/a${i}_$(basename "$f")"
  done
done
rm -f "$root/%s"
find "$tmp" -name '*.o' | sort | xargs ar rcs "$root/%s"
""" % (out.path, out.path),
        arguments = [a.path for a in archives],
        mnemonic = "StaticLibrary",
        progress_message = "Merging %d archives into %s" % (len(archives), out.short_path),
    )
    return [DefaultInfo(files = depset([out]))]

static_library = rule(
    implementation = _static_library_impl,
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
        "out": attr.output(mandatory = True),
    },
)
