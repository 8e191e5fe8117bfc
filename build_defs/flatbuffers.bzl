"""flatbuffer_cc_library: generate C++ from .fbs files with the system flatc 2.0.8.

apt: flatbuffers-compiler. The generated headers static_assert the FlatBuffers
version, so they must be compiled against Debian's libflatbuffers-dev headers.
"""

DEFAULT_FLATC_ARGS = [
    "--cpp",
    "--gen-object-api",
    "--scoped-enums",
    "--gen-mutable",
    "--reflect-names",
    "--cpp-std",
    "c++17",
]

def flatbuffer_cc_library(name, srcs, flatc_args = DEFAULT_FLATC_ARGS, deps = [], **kwargs):
    """Generates <schema>_generated.h for every .fbs in srcs and wraps them in a cc_library.

    Args:
      name: the cc_library name; the genrule is <name>_gen.
      srcs: .fbs files; includes between them must be in the same package.
      flatc_args: flags for flatc.
      deps: extra cc deps.
      **kwargs: passed to the cc_library (visibility, ...).
    """
    outs = [s.split("/")[-1].replace(".fbs", "_generated.h") for s in srcs]
    native.genrule(
        name = name + "_gen",
        srcs = srcs,
        outs = outs,
        cmd = "flatc %s -o $(@D) $(SRCS)" % " ".join(flatc_args),
        message = "flatc %s" % name,
    )
    native.cc_library(
        name = name,
        hdrs = outs,
        deps = deps + ["//third_party:flatbuffers"],
        **kwargs
    )
