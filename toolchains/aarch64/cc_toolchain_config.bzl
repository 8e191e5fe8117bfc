"""A minimal gcc cross toolchain for aarch64-linux-gnu under Bazel 4.2.3.

Tool paths point at Debian's /usr/bin/aarch64-linux-gnu-* (g++-aarch64-linux-gnu).
The host /usr/include is searched last, which is how architecture-independent
headers (xnnpack.h, gtest, flatbuffers, benchmark) are found; arm64 libraries come
from the sysroot that scripts/fetch_arm64_sysroot.sh unpacks.
"""

load("@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl", "feature")
load(
    "//toolchains:gcc_cross.bzl",
    "COMPILE_ACTIONS",
    "CXX_ACTIONS",
    "LINK_EXECUTABLE_ACTIONS",
    "LINK_SHARED_ACTIONS",
    "flags",
    "gcc_tool_paths",
)

_LINK_ACTIONS = LINK_EXECUTABLE_ACTIONS + LINK_SHARED_ACTIONS

def _impl(ctx):
    prefix = "/usr/bin/aarch64-linux-gnu-"
    compile_flags = feature(
        name = "default_compile_flags",
        enabled = True,
        flag_sets = [
            flags(COMPILE_ACTIONS, [
                "-U_FORTIFY_SOURCE",
                "-fstack-protector",
                "-Wall",
                "-fno-omit-frame-pointer",
                "-no-canonical-prefixes",
                "-fno-canonical-system-headers",
            ]),
            flags(CXX_ACTIONS, ["-std=c++17"]),
            flags(COMPILE_ACTIONS, ["-g"], ["dbg"]),
            flags(
                COMPILE_ACTIONS,
                ["-g0", "-O2", "-DNDEBUG", "-ffunction-sections", "-fdata-sections"],
                ["opt"],
            ),
        ],
    )
    link_flags = feature(
        name = "default_link_flags",
        enabled = True,
        flag_sets = [
            flags(_LINK_ACTIONS, ["-lstdc++", "-lm", "-pthread"]),
            flags(_LINK_ACTIONS, ["-Wl,--gc-sections"], ["opt"]),
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
        tool_paths = gcc_tool_paths(prefix),
    )

cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {},
    provides = [CcToolchainConfigInfo],
)
