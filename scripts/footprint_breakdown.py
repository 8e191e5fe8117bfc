#!/usr/bin/env python3
"""Where the bytes of a linked image go, from its GNU ld (or gold) map (scripts/footprint.sh --breakdown).

  footprint_breakdown.py MAP [--title T] [--cxxfilt c++filt] [--top N]

Reads every input section the link kept (the map's "Linker script and memory map" part) in the
image's loaded, non-zero-filled output sections (.text, .rodata, .data, .eh_frame, ...; not
.bss/.tbss/.stack) and sums its bytes by symbol group: executor, loader, verifier (the
FlatBuffers verification code), core, kernel registry, prim ops, platform, strings (string
literals: error messages and log formats, by layer), each portable kernel source file split by
the dtype its code was instantiated for, the .pte and reference data, the C/C++ runtime. Prints a
markdown table. String literal sections are counted before the linker merges duplicates, so the
groups can add up to a little more than the image (the last line says by how much).
"""
import argparse
import collections
import re
import subprocess
import sys

_LOADED = re.compile(r"^\.(text|rodata|data|tdata|ARM\.exidx|ARM\.extab|init_array|fini_array|eh_frame|"
                     r"eh_frame_hdr|gcc_except_table|data\.rel\.ro|rela?\.dyn|rela?\.plt|plt|got|got\.plt|"
                     r"dynsym|dynstr|dynamic|gnu\.hash|gnu\.version.*|interp|note\..*|init|fini|ctors|dtors)$")
_ENTRY = re.compile(r"^ (\S+)\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(.+)$")
_ENTRY_HEAD = re.compile(r"^ (\S+)$")
# gold's linker-made pieces: " ** merge strings", " ** fill    0x.. 0x..", " ** dynsym ..."
_GOLD = re.compile(r"^ \*\* ([a-z_ ]+?)\s*(?:0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+))?\s*$")
_ENTRY_TAIL = re.compile(r"^\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(.+)$")
_SYMBOL = re.compile(r"^\s+0x([0-9a-fA-F]+)\s+(\S.*)$")
_OUTSEC = re.compile(r"^(\.\S+)\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)")
_OUTSEC_HEAD = re.compile(r"^(\.\S+)\s*$")

# C++ type spellings in demangled template arguments -> the dtype they instantiate.
_DTYPES = [
    ("ember::runtime::BFloat16", "bfloat16"), ("ember::runtime::Half", "float16"),
    ("double", "float64"), ("float", "float32"), ("bool", "bool"),
    ("unsigned char", "uint8"), ("signed char", "int8"), ("short", "int16"),
    ("long long", "int64"), ("unsigned long", "uint64"), ("long", "long"), ("int", "int32"),
]
_TAG = re.compile(r"TypeTag<([^<>]+)>")


def dtype_of(symbol, long_bits):
    """The dtype a kernel symbol was instantiated for, or None when it is not a dtype instance."""
    m = _TAG.search(symbol)
    if not m:
        # Templates instantiated per element type without a tag: foo<float>(...), Bar<int>::...
        m = re.search(r"<((?:ember::runtime::)?(?:BFloat16|Half)|double|float|bool|unsigned char|signed char|short|"
                      r"long long|unsigned long|long|int)[,>]", symbol)
    if not m:
        return None
    t = m.group(1).strip()
    for spelling, name in _DTYPES:
        if t == spelling:
            if name == "long":
                return "int64" if long_bits == 64 else "int32"
            if name == "uint64" and spelling == "unsigned long" and long_bits == 32:
                return "uint32"
            return name
    return None


def component(path, section):
    """The group of an input section: (group, kernel file or None)."""
    p = path
    if p.startswith("** "):
        piece = p[3:]
        if piece == "merge strings":
            return "strings, all objects (merged by gold: messages, log formats)", None
        if piece == "merge constants":
            return "constants (merged by gold)", None
        if piece in ("fill", "zero fill"):
            return "alignment fill", None
        return "ELF dynamic linking and notes (dynsym, PLT, GOT, relocations)", None
    if re.search(r"lib(gcc|c|c_nano|m|stdc\+\+|stdc\+\+_nano|supc\+\+)\.a|/usr/lib|crt[a-z0-9]*\.o|ld-linux|libc_nonshared",
                 p):
        return "C/C++ runtime (libc, libstdc++, libgcc)", None
    m = re.search(r"kernels/portable/(?:_objs/[^/]+/|lib[^/(]+\.a\()(?:ops/|util/)?([A-Za-z0-9_]+)\.(?:pic\.)?o", p)
    if "kernels/portable/" in p and m:
        lib = re.search(r"/lib([A-Za-z0-9_]+)\.a\(", p)
        prefix = {"util": "util/", "portable": "ops/"}.get(lib.group(1), "") if lib else ""
        return "kernel", prefix + m.group(1)
    m = re.search(r"_kernel_code\.a\(([A-Za-z0-9_]+)\.o\)", p)
    if m:  # a dtype-selective library's own compile of the kernel sources
        return "kernel", m.group(1)
    if re.search(r"_kernels\.a\(|_kernels(\.pic)?\.o", p):
        return "kernel table (selected kernels)", None
    if re.search(r"_program\.a\(|_program(\.pic)?\.o", p):
        return ".pte (embedded)", None
    if re.search(r"_(input|expected)\.a\(|_(input|expected)(\.pic)?\.o", p):
        return "reference input and output", None
    for key, name in [("runtime/executor/", "executor"), ("runtime/loader/", "loader"),
                      ("runtime/kernel/prim_ops", "prim ops"), ("runtime/kernel/", "kernel registry"),
                      ("runtime/core/", "core (tensors, allocators, errors)"), ("runtime/platform/", "platform"),
                      ("runtime/backend/", "backend interface"), ("toolchains/", "board support (start-up, semihosting)")]:
        if key in p:
            return name, None
    return "app (main, model check)", None


def parse(path):
    """Yields (output section, input section, size, file, first symbol or '') for loaded input sections."""
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    if "Linker script and memory map" in lines:  # GNU ld (bfd)
        start = lines.index("Linker script and memory map")
    elif "Memory map" in lines:  # gold (the host toolchain's -fuse-ld=gold)
        start = lines.index("Memory map")
    else:
        sys.exit(f"{path}: not a GNU ld or gold map (no 'Linker script and memory map' / 'Memory map')")
    out = None
    pending = None  # (input section) waiting for its address line
    entry = None
    for line in lines[start + 1:]:
        m = _OUTSEC.match(line) or _OUTSEC_HEAD.match(line)
        if m and not line.startswith(" "):
            if entry:
                yield entry
                entry = None
            out = m.group(1)
            continue
        m = _GOLD.match(line)
        if m:
            if entry:
                yield entry
                entry = None
            pending = None
            if m.group(3):
                yield [out, "** " + m.group(1), int(m.group(3), 16), "** " + m.group(1), ""]
            else:
                pending = "** " + m.group(1)
            continue
        m = _ENTRY.match(line)
        if m and not line.startswith("  "):
            if entry:
                yield entry
            entry = [out, m.group(1), int(m.group(3), 16), m.group(4).strip(), ""]
            pending = None
            continue
        m = _ENTRY_HEAD.match(line)
        if m:
            if entry:
                yield entry
                entry = None
            pending = m.group(1)
            continue
        if pending:
            m = _ENTRY_TAIL.match(line)
            if m:
                entry = [out, pending, int(m.group(2), 16), m.group(3).strip(), ""]
                pending = None
                continue
            m = re.match(r"^\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s*$", line)
            if m and pending.startswith("** "):
                yield [out, pending, int(m.group(2), 16), pending, ""]
                pending = None
                continue
        m = _SYMBOL.match(line)
        if m and entry and not entry[4]:
            entry[4] = m.group(2).strip()
    if entry:
        yield entry


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("map")
    ap.add_argument("--title", default="")
    ap.add_argument("--cxxfilt", default="c++filt")
    ap.add_argument("--long_bits", type=int, default=64, help="bits of C++ long on the target (32 on Arm)")
    ap.add_argument("--top", type=int, default=0, help="kernel files listed one by one (0: all)")
    args = ap.parse_args()

    entries = [e for e in parse(args.map) if e[0] and _LOADED.match(e[0]) and e[2] > 0 and
               not (e[3].startswith("*") and not e[3].startswith("** ")) and "LOAD" not in e[3]]
    # Symbol names for dtype attribution: the map's own (demangled or not) or the section's suffix.
    names = []
    for e in entries:
        sym = e[4]
        if not sym:
            sec = e[1]
            for prefix in (".text.", ".rodata.", ".data.rel.ro.local.", ".data.rel.ro.", ".data."):
                if sec.startswith(prefix) and "_Z" in sec:
                    sym = sec[sec.index("_Z"):]
                    break
        names.append(sym)
    to_demangle = sorted({n for n in names if n.startswith("_Z")})
    demangled = {}
    if to_demangle:
        try:
            res = subprocess.run([args.cxxfilt], input="\n".join(to_demangle), capture_output=True, text=True, check=True)
            demangled = dict(zip(to_demangle, res.stdout.split("\n")))
        except (OSError, subprocess.CalledProcessError):
            pass
    groups = collections.Counter()
    kernels = collections.defaultdict(collections.Counter)
    total = 0
    for e, sym in zip(entries, names):
        out, sec, size, path, _ = e
        sym = demangled.get(sym, sym)
        total += size
        group, kfile = component(path, sec)
        is_string = sec.startswith(".rodata.str") or sec.startswith(".rodata.cst") is False and ".str" in sec
        if group == "kernel":
            d = dtype_of(sym, args.long_bits) if not is_string else "strings"
            kernels[kfile][d or "shared (no dtype)"] += size
            continue
        if is_string and group not in (".pte (embedded)", "reference input and output"):
            group = "strings: " + group.split(" (")[0] + " (messages, log formats, names)"
        elif group in ("executor", "core (tensors, allocators, errors)") and re.search(r"[Vv]erif", sym):
            group = "verifier (FlatBuffers checks of the .pte)"
        groups[group] += size

    title = f" {args.title}" if args.title else ""
    print(f"| group{title} | bytes |")
    print("|---|---:|")
    for g, n in groups.most_common():
        print(f"| {g} | {n:,} |")
    ktotal = sum(sum(c.values()) for c in kernels.values())
    if kernels:
        print(f"| **portable kernels, all files** | **{ktotal:,}** |")
        order = sorted(kernels.items(), key=lambda kv: -sum(kv[1].values()))
        if args.top:
            order = order[:args.top]
        for kfile, per in order:
            parts = ", ".join(f"{d} {n:,}" for d, n in per.most_common())
            print(f"| kernel `{kfile}`: {parts} | {sum(per.values()):,} |")
        dtypes = collections.Counter()
        for per in kernels.values():
            dtypes.update(per)
        parts = ", ".join(f"{d} {n:,}" for d, n in dtypes.most_common())
        print(f"| kernels by dtype: {parts} | |")
    print(f"| **total (input sections, before string merging)** | **{total:,}** |")


if __name__ == "__main__":
    main()
