"""Dumps the aten operator schemas of the running PyTorch as JSON lines (one per overload).

Runs inside a torch chroot (refgen/torch_env/run.sh SUITE refgen/schemas/dump.py OUT.jsonl).
Reads every schema torch registers (torch._C._jit_get_all_schemas()), parses each with
torchgen (shipped in Debian's python3-torch) and writes for each aten overload:

  {"op": "aten::add.Tensor", "kind": "functional|inplace|mutable|out",
   "line": "<Ember table line>" or null, "skip": "<why no line>" or null,
   "core": true if tagged torch.Tag.core}

The table line format is aot/ir/op_schema.h's. The out variant column is the out overload
torchgen groups with the functional one (same signature, TensorOptions dropped); for a view
op it is the out overload of its `<name>_copy` functional form. write_table.py merges the
dumps of both torch versions into aot/ir/op_schema_table_aten_*.cc.
"""
import json
import sys

import os
import re

import torch
import torchgen
import torchgen.model as tm
import yaml

# Operator name parts of backends and layouts an exported CPU inference graph never holds.
EXCLUDED_PARTS = (
    "cudnn", "miopen", "mkldnn", "mps", "cufft", "fbgemm", "_cslt", "sparse", "nested",
    "_foreach", "_fused_", "_amp_", "_flash_attention", "_efficient_attention", "_cudnn",
    "_cummax_helper", "_cummin_helper", "quantized_", "_nnpack", "vulkan", "xpu",
    "_scaled_dot_product_fused_attention_overrideable", "_thnn_", "_test_", "_jagged",
)

# Types the table grammar knows (aot/ir/op_schema.h); an op using another (Dimname, Stream,
# QScheme, Storage, SymBool, ...) never appears in an exported inference graph Ember lowers.
TABLE_BASES = {
    "Tensor", "int", "SymInt", "float", "bool", "str", "Scalar", "ScalarType", "Layout",
    "Device", "MemoryFormat", "Generator",
}


def type_text(t):
    """torchgen type -> table type text, or None if the table grammar cannot say it."""
    if isinstance(t, tm.BaseType):
        name = str(t)
        return name if name in TABLE_BASES else None
    if isinstance(t, tm.OptionalType):
        if isinstance(t.elem, tm.OptionalType):
            return None
        inner = type_text(t.elem)
        return None if inner is None or inner.endswith("?") else inner + "?"
    if isinstance(t, tm.ListType):
        size = "" if t.size is None else str(t.size)
        if isinstance(t.elem, tm.OptionalType) and isinstance(t.elem.elem, tm.BaseType):
            inner = type_text(t.elem.elem)
            return None if inner is None else inner + "?[" + size + "]"
        if isinstance(t.elem, tm.BaseType):
            inner = type_text(t.elem)
            return None if inner is None else inner + "[" + size + "]"
    return None


def default_text(d, type_name):
    """torch's printed default -> table default text: no spaces, strings in single quotes,
    floats in Python's shortest form ("1e-05", not "1.0000000000000001e-05"), and the memory
    format torch prints as 0 (c10::MemoryFormat::Contiguous) by its schema name."""
    if d is None:
        return None
    d = d.replace(" ", "")
    if len(d) >= 2 and d[0] == '"' and d[-1] == '"':
        return "'" + d[1:-1] + "'"
    m = re.match(r"^\w+\[(\d+)\]", type_name)
    if m and d.startswith("[") and d != "[]" and len(set(d[1:-1].split(","))) == 1 and \
            len(d[1:-1].split(",")) == int(m.group(1)):
        d = d[1:-1].split(",")[0]  # SymInt[2] stride=[1,1] -> 1 (the table repeats it)
    if type_name.startswith("MemoryFormat") and d == "0":
        return "contiguous_format"
    if re.match(r"^-?\d+\.\d*(e[-+]?\d+)?$|^-?\d+e[-+]?\d+$", d):
        return repr(float(d))
    return d


def arg_text(a, kw):
    t = type_text(a.type)
    if t is None:
        return None, "argument '%s' has type %s" % (a.name, a.type)
    text = ("*" if kw else "") + a.name + ":" + t
    if a.annotation is not None and a.annotation.is_write:
        text += "!"
    d = default_text(a.default, t)
    if d is not None:
        text += "=" + d
    return text, None


def returns_text(f):
    out = []
    for r in f.returns:
        t = type_text(r.type)
        if t is None:
            return None, "returns %s" % r.type
        out.append(t)
    return (" ".join(out) if out else "-"), None


def is_view(f):
    return any(r.annotation is not None and not r.annotation.is_write for r in f.returns)


def native_names():
    """The "aten::name.overload" keys of ATen's own operators: the entries of the
    native_functions.yaml torchgen ships plus the out variants it generates from their
    `autogen:` lists (TorchScript's scalar/list/dict ops are not among them), named-tensor
    overloads left out."""
    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    with open(os.path.join(base, "native_functions.yaml")) as fh:
        entries = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    names = set()
    for e in entries:
        if "Dimname" in e["func"]:
            continue  # named-tensor overloads (TorchScript prints Dimname as str); export has none
        head = e["func"].split("(", 1)[0]
        auto = e.get("autogen", "")
        for n in [head] + [a.strip() for a in auto.split(",") if a.strip()]:
            name, _, overload = n.partition(".")
            names.add("aten::%s.%s" % (name, overload or "default"))
    return names


def excluded(key):
    """Why an overload gets no line although the table could say it, or None."""
    name = key.split("::")[1].split(".")[0]
    if "backward" in name:
        return "backward op (never in an inference export)"
    for part in EXCLUDED_PARTS:
        if part in name:
            return "device- or layout-specific (%s)" % part
    return None


def main():
    out_path = sys.argv[1]
    native = native_names()
    parsed = {}
    for s in torch._C._jit_get_all_schemas():
        key = s.name + "." + (s.overload_name or "default")
        if key in native:
            # torch prints list defaults as "[0, 1]"; torchgen's grammar wants "[0,1]".
            text = re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", ""), str(s))
            parsed[key] = (tm.FunctionSchema.parse(text[len("aten::"):]), None)

    def sig(f):
        return str(f.signature(strip_default=True))

    outs = {}
    for key, (f, _) in parsed.items():
        if f is not None and f.kind() == tm.SchemaKind.out:
            outs.setdefault(sig(f), []).append(key)

    def out_of(key):
        f = parsed[key][0]
        if f is None:
            return None
        found = outs.get(sig(f), [])
        return found[0] if len(found) == 1 else None

    core = set()
    for name in dir(torch.ops.aten):
        packet = getattr(torch.ops.aten, name, None)
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for ov in packet.overloads():
            op = getattr(packet, ov)
            if torch.Tag.core in op.tags:
                core.add("aten::%s.%s" % (name, ov))

    rows = []
    for key in sorted(parsed):
        f, why = parsed[key]
        row = {"op": key, "kind": None, "line": None, "skip": why, "core": key in core}
        if f is not None and excluded(key) is not None:
            row["kind"] = f.kind().name
            row["skip"] = excluded(key)
        elif f is not None:
            kind = f.kind()
            row["kind"] = kind.name
            args, why = [], None
            for a in f.arguments.flat_positional:
                t, why = arg_text(a, False)
                if t is None:
                    break
                args.append(t)
            if why is None:
                for a in f.arguments.flat_kwarg_only + list(f.arguments.out):
                    t, why = arg_text(a, True)
                    if t is None:
                        break
                    args.append(t)
            rets, rwhy = returns_text(f)
            why = why or rwhy
            if why is not None:
                row["skip"] = why
            else:
                out = "-"
                flag = "-"
                if kind == tm.SchemaKind.inplace:
                    flag = "inplace"
                elif kind in (tm.SchemaKind.functional, tm.SchemaKind.mutable):
                    if is_view(f):
                        flag = "view"
                        copy_key = "aten::%s_copy.%s" % (key.split("::")[1].split(".")[0],
                                                         key.rsplit(".", 1)[1])
                        out = out_of(copy_key) if copy_key in parsed else None
                    else:
                        out = out_of(key)
                    # torchgen pairs foo_functional (which also returns the mutated inputs)
                    # with foo.out; that out variant returns fewer tensors, so it is not ours.
                    if out and len(parsed[out][0].arguments.out) != len(f.returns):
                        out = None
                    out = out or "-"
                row["line"] = " | ".join([key, " ".join(args) or "-", rets, out, flag])
        rows.append(row)
    with open(out_path, "w") as fh:
        fh.write(json.dumps({"torch": torch.__version__}) + "\n")
        for r in rows:
            fh.write(json.dumps(r, sort_keys=True) + "\n")
    print("%s: %d aten overloads, %d core" % (out_path, len(rows), len(core)))


if __name__ == "__main__":
    main()
