"""What Ember's gcc cross toolchains (aarch64, cortex_m) share under Bazel 4.2.3: the action
groups their flag sets apply to, a one-group flag set, and tool paths from a Debian prefix."""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

COMPILE_ACTIONS = [
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.linkstamp_compile,
]

CXX_ACTIONS = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.linkstamp_compile,
]

LINK_EXECUTABLE_ACTIONS = [ACTION_NAMES.cpp_link_executable]

LINK_SHARED_ACTIONS = [
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

_TOOLS = ["gcc", "cpp", "ld", "ar", "nm", "objcopy", "objdump", "strip", "gcov", "dwp"]

def flags(actions, flags, features = None):
    """One flag group for `actions`, only when all of `features` are on (if given)."""
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )

def gcc_tool_paths(prefix):
    """Tool paths for a Debian cross gcc, e.g. prefix "/usr/bin/arm-none-eabi-"."""
    return [tool_path(name = t, path = prefix + t) for t in _TOOLS]
