"""A minimal gcc cross toolchain for aarch64-linux-gnu under Bazel 4.2.3.

Tool paths point at Debian's /usr/bin/aarch64-linux-gnu-* (g++-aarch64-linux-gnu).
The host /usr/include is searched last, which is how architecture-independent
headers (xnnpack.h, gtest, flatbuffers, benchmark) are found; arm64 libraries come
from the sysroot that scripts/fetch_arm64_sysroot.sh unpacks.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_COMPILE_ACTIONS = [
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.linkstamp_compile,
]

_CXX_ACTIONS = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.linkstamp_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

_TOOLS = ["gcc", "cpp", "ld", "ar", "nm", "objcopy", "objdump", "strip", "gcov", "dwp"]

def _flags(actions, flags, features = None):
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )

def _impl(ctx):
    prefix = "/usr/bin/aarch64-linux-gnu-"
    compile_flags = feature(
        name = "default_compile_flags",
        enabled = True,
        flag_sets = [
            _flags(_COMPILE_ACTIONS, [
                "-U_FORTIFY_SOURCE",
                "-fstack-protector",
                "-Wall",
                "-fno-omit-frame-pointer",
                "-no-canonical-prefixes",
                "-fno-canonical-system-headers",
            ]),
            _flags(_CXX_ACTIONS, ["-std=c++17"]),
            _flags(_COMPILE_ACTIONS, ["-g"], ["dbg"]),
            _flags(
                _COMPILE_ACTIONS,
                ["-g0", "-O2", "-DNDEBUG", "-ffunction-sections", "-fdata-sections"],
                ["opt"],
            ),
        ],
    )
    link_flags = feature(
        name = "default_link_flags",
        enabled = True,
        flag_sets = [
            _flags(_LINK_ACTIONS, ["-lstdc++", "-lm", "-pthread"]),
            _flags(_LINK_ACTIONS, ["-Wl,--gc-sections"], ["opt"]),
        ],
    )
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = [
            feature(name = "supports_pic", enabled = True),
            feature(name = "supports_dynamic_linker", enabled = True),
            feature(name = "opt"),
            feature(name = "dbg"),
            compile_flags,
            link_flags,
        ],
        cxx_builtin_include_directories = [
            "/usr/aarch64-linux-gnu/include",
            "/usr/lib/gcc-cross/aarch64-linux-gnu/12/include",
            "/usr/include",
        ],
        toolchain_identifier = "aarch64-linux-gnu-gcc",
        host_system_name = "x86_64-unknown-linux-gnu",
        target_system_name = "aarch64-linux-gnu",
        target_cpu = "aarch64",
        target_libc = "glibc",
        compiler = "gcc",
        abi_version = "gcc",
        abi_libc_version = "glibc",
        tool_paths = [tool_path(name = t, path = prefix + t) for t in _TOOLS],
    )

cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {},
    provides = [CcToolchainConfigInfo],
)
