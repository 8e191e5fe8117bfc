"""A gcc toolchain for bare-metal Cortex-M (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi,
libstdc++-arm-none-eabi-newlib) under Bazel 4.2.3, for `--config=cortex_m`.

Cortex-M3 (Thumb-2, no FPU: the MPS2 AN385 board qemu-system-arm models), newlib-nano, no
exceptions, no RTTI, no thread-safe statics, every function and object in its own section so
the link keeps only what is reached (--gc-sections). Images bring their own start-up code and
linker script (toolchains/cortex_m:mps2_an385); nothing here links crt0 or a syscall layer, so a
call into the heap (malloc -> _sbrk) or the file system fails the link.
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
]

_TOOLS = ["gcc", "cpp", "ld", "ar", "nm", "objcopy", "objdump", "strip", "gcov", "dwp"]

_CPU = ["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"]

def _flags(actions, flags, features = None):
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )

def _impl(ctx):
    prefix = "/usr/bin/arm-none-eabi-"
    compile_flags = feature(
        name = "default_compile_flags",
        enabled = True,
        flag_sets = [
            _flags(_COMPILE_ACTIONS, _CPU + [
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
            _flags(_CXX_ACTIONS, [
                "-std=c++17",
                "-fno-exceptions",
                "-fno-rtti",
                "-fno-threadsafe-statics",
                "-fno-use-cxa-atexit",
            ]),
            _flags(_COMPILE_ACTIONS, ["-g"], ["dbg"]),
            _flags(_COMPILE_ACTIONS, ["-DNDEBUG"], ["opt"]),
        ],
    )
    link_flags = feature(
        name = "default_link_flags",
        enabled = True,
        flag_sets = [
            _flags(_LINK_ACTIONS, _CPU + [
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
        tool_paths = [tool_path(name = t, path = prefix + t) for t in _TOOLS],
    )

cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {},
    provides = [CcToolchainConfigInfo],
)
