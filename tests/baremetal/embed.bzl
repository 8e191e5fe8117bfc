"""embedded_data: a fixture file as an aligned const array (the embed tool behind
ember_embedded_program, which takes only .pte files), for images without a file system."""

def embedded_data(name, src, symbol, alignment = 16, **kwargs):
    native.genrule(
        name = name + "_gen",
        srcs = [src],
        outs = [name + ".cc", name + ".h"],
        tools = ["//build_defs:embed_program"],
        cmd = ("$(location //build_defs:embed_program) --in $< --cc $(location %s.cc) " +
               "--h $(location %s.h) --symbol %s --alignment %d --include %s/%s.h") %
              (name, name, symbol, alignment, native.package_name(), name),
        **kwargs
    )
    native.cc_library(
        name = name,
        srcs = [name + ".cc"],
        hdrs = [name + ".h"],
        **kwargs
    )
