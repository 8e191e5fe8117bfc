"""A gcc toolchain for bare-metal Cortex-M (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi,
libstdc++-arm-none-eabi-newlib) under Bazel 4.2.3, for `--config=cortex_m`.

Cortex-M3 (Thumb-2, no FPU: the MPS2 AN385 board qemu-system-arm models), newlib-nano, no
exceptions, no RTTI, no thread-safe statics, every function and object in its own section so
the link keeps only what is reached (--gc-sections). Images bring their own start-up code and
linker script (toolchains/cortex_m:mps2_an385); nothing here links crt0 or a syscall layer, so a
call into the heap (malloc -> _sbrk) or the file system fails the link.
"""

load("@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl", "feature")
load(
    "//toolchains:gcc_cross.bzl",
    "COMPILE_ACTIONS",
    "CXX_ACTIONS",
    "LINK_EXECUTABLE_ACTIONS",
    "flags",
    "gcc_tool_paths",
)

_LINK_ACTIONS = LINK_EXECUTABLE_ACTIONS

_CPU = ["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"]

def _impl(ctx):
    prefix = "/usr/bin/arm-none-eabi-"
    compile_flags = feature(
        name = "default_compile_flags",
        enabled = True,
        flag_sets = [
            flags(COMPILE_ACTIONS, _CPU + [
                "-Os",
                "-ffunction-sections",
                "-fdata-sections",
                "-fno-asynchronous-unwind-tables",
                "-no-canonical-prefixes",
                "-fno-canonical-system-headers",
                "-DEMBER_BARE_METAL=1",
                # newlib hides POSIX names (strnlen) under -std=c++17 without it.
                "-D_POSIX_C_SOURCE=200809L",
                # Header-only libraries (flatbuffers) from the host, searched after newlib and
                # libstdc++, so no glibc header is ever picked.
                "-idirafter",
                "/usr/include",
            ]),
            flags(CXX_ACTIONS, [
                "-std=c++17",
                "-fno-exceptions",
                "-fno-rtti",
                "-fno-threadsafe-statics",
                "-fno-use-cxa-atexit",
            ]),
            flags(COMPILE_ACTIONS, ["-g"], ["dbg"]),
            flags(COMPILE_ACTIONS, ["-DNDEBUG"], ["opt"]),
        ],
    )
    link_flags = feature(
        name = "default_link_flags",
        enabled = True,
        flag_sets = [
            flags(_LINK_ACTIONS, _CPU + [
                "--specs=nano.specs",
                "-nostartfiles",
                "-Wl,--gc-sections",
                "-Wl,--start-group",
                "-lstdc++_nano",
                "-lm",
                "-lc_nano",
                "-lgcc",
                "-Wl,--end-group",
            ]),
        ],
    )
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = [
            feature(name = "opt"),
            feature(name = "dbg"),
            compile_flags,
            link_flags,
        ],
        cxx_builtin_include_directories = [
            "/usr/lib/arm-none-eabi/include",
            "/usr/lib/gcc/arm-none-eabi/12.2.1/include",
            "/usr/lib/gcc/arm-none-eabi/12.2.1/include-fixed",
            "/usr/include/newlib",
            "/usr/include",
        ],
        toolchain_identifier = "arm-none-eabi-gcc",
        host_system_name = "x86_64-unknown-linux-gnu",
        target_system_name = "arm-none-eabi",
        target_cpu = "cortex_m",
        target_libc = "newlib",
        compiler = "gcc",
        abi_version = "gcc",
        abi_libc_version = "newlib",
        tool_paths = gcc_tool_paths(prefix),
    )

cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {},
    provides = [CcToolchainConfigInfo],
)
