"""Binary encoder for Ember kernel case files (format: kernels/test/cases/FORMAT.md).

Pure encoding: takes already-computed torch tensors and Python values and writes bytes. It
knows nothing about which ops exist; casegen.py builds the cases with real PyTorch.
"""
import struct

import torch

MAGIC = b"EMBRCASE"
VERSION = 1

# ExecuTorch ScalarType codes (pte-format.md section 1.6).
DTYPE_CODES = {
    torch.uint8: 0,
    torch.int8: 1,
    torch.int16: 2,
    torch.int32: 3,
    torch.int64: 4,
    torch.float16: 5,
    torch.float32: 6,
    torch.float64: 7,
    torch.complex64: 9,
    torch.bool: 11,
    torch.bfloat16: 15,
}

# Argument kind codes.
TENSOR, INT, DOUBLE, BOOL, INT_LIST, DOUBLE_LIST, BOOL_LIST = 0, 1, 2, 3, 4, 5, 6
OPTIONAL_NONE, TENSOR_LIST, OPTIONAL_TENSOR_LIST, SCALAR_TYPE, STRING, MEMORY_FORMAT = (
    7, 8, 9, 10, 11, 12)

MEMORY_FORMAT_CODES = {
    torch.contiguous_format: 0,
    torch.preserve_format: 1,
    torch.channels_last: 2,
    torch.channels_last_3d: 3,
}

ARG_FLAG_OUT = 1
ARG_FLAG_MUTATED = 2  # an in-place op's mutable input: has data, and is also an output
CASE_FLAG_EXPECT_ERROR = 1


def dim_order_of(t):
    """The dim order of a dense tensor, preferring the contiguous order on ties; None if the
    strides are not a dense permutation (then the caller stores it contiguous)."""
    n = t.dim()
    if t.is_contiguous():
        return list(range(n))
    if n == 4 and t.is_contiguous(memory_format=torch.channels_last):
        return [0, 2, 3, 1]
    order = sorted(range(n), key=lambda d: (-t.stride(d), d))
    expected = 1
    for d in reversed(order):
        if t.size(d) != 1 and t.stride(d) != expected:
            return None
        expected *= t.size(d)
    return order


def tensor_bytes(t, dim_order):
    """Little-endian bytes of t laid out physically in dim_order."""
    phys = t.permute(dim_order).contiguous() if t.dim() else t.contiguous()
    flat = phys.reshape(-1)
    if flat.numel() == 0:
        return b""
    if flat.dtype == torch.bool:
        flat = flat.to(torch.uint8)
    return flat.view(torch.uint8).numpy().tobytes()


class Writer:
    def __init__(self):
        self.parts = []

    def raw(self, b):
        self.parts.append(b)

    def u8(self, v):
        self.raw(struct.pack("<B", v))

    def u32(self, v):
        self.raw(struct.pack("<I", v))

    def i64(self, v):
        self.raw(struct.pack("<q", v))

    def u64(self, v):
        self.raw(struct.pack("<Q", v))

    def f64(self, v):
        self.raw(struct.pack("<d", v))

    def string(self, s):
        b = s.encode("utf-8")
        self.u32(len(b))
        self.raw(b)

    def tensor(self, t, zero_data=False):
        if t.dtype not in DTYPE_CODES:
            raise ValueError("unsupported dtype %s" % t.dtype)
        order = dim_order_of(t)
        if order is None:
            t = t.contiguous()
            order = list(range(t.dim()))
        self.u8(DTYPE_CODES[t.dtype])
        self.u8(t.dim())
        for s in t.shape:
            self.i64(s)
        for d in order:
            self.u8(d)
        data = b"" if zero_data else tensor_bytes(t, order)
        self.u64(len(data))
        self.raw(data)

    def data(self):
        return b"".join(self.parts)


def encode_arg(w, name, schema_type, value, flags):
    """Writes one argument; the kind is chosen from the Python value and the schema type.
    flags: ARG_FLAG_OUT (data not stored) and/or ARG_FLAG_MUTATED."""
    is_out = bool(flags & ARG_FLAG_OUT)
    w.string(name)
    w.string(schema_type)
    w.u8(flags)
    if value is None:
        w.u8(OPTIONAL_NONE)
    elif isinstance(value, torch.Tensor):
        w.u8(TENSOR)
        w.tensor(value, zero_data=is_out)
    elif isinstance(value, bool):
        w.u8(BOOL)
        w.u8(1 if value else 0)
    elif isinstance(value, torch.dtype):
        w.u8(SCALAR_TYPE)
        w.u8(DTYPE_CODES[value])
    elif isinstance(value, torch.memory_format):
        w.u8(MEMORY_FORMAT)
        w.u8(MEMORY_FORMAT_CODES[value])
    elif isinstance(value, int):
        w.u8(INT)
        w.i64(value)
    elif isinstance(value, float):
        w.u8(DOUBLE)
        w.f64(value)
    elif isinstance(value, str):
        w.u8(STRING)
        w.string(value)
    elif isinstance(value, (list, tuple)):
        encode_list(w, schema_type, list(value), is_out)
    else:
        raise ValueError("cannot encode %r for %s" % (value, name))


def encode_list(w, schema_type, items, is_out=False):
    if "Optional[Tensor]" in schema_type:
        w.u8(OPTIONAL_TENSOR_LIST)
        w.u32(len(items))
        for t in items:
            w.u8(0 if t is None else 1)
            if t is not None:
                w.tensor(t)
    elif "Tensor" in schema_type:
        w.u8(TENSOR_LIST)
        w.u32(len(items))
        for t in items:
            w.tensor(t, zero_data=is_out)
    elif "float" in schema_type:
        w.u8(DOUBLE_LIST)
        w.u32(len(items))
        for v in items:
            w.f64(float(v))
    elif "bool" in schema_type:
        w.u8(BOOL_LIST)
        w.u32(len(items))
        for v in items:
            w.u8(1 if v else 0)
    else:
        w.u8(INT_LIST)
        w.u32(len(items))
        for v in items:
            w.i64(int(v))


def encode_file(op_key, torch_version, cases):
    """cases: list of dicts with name, flags, atol, rtol, args [(name, type, value, flags)],
    outputs [tensor]."""
    w = Writer()
    w.raw(MAGIC)
    w.u32(VERSION)
    w.string(op_key)
    w.string(torch_version)
    w.u32(len(cases))
    for c in cases:
        w.string(c["name"])
        w.u32(c["flags"])
        w.f64(c["atol"])
        w.f64(c["rtol"])
        w.u32(len(c["args"]))
        for name, schema_type, value, flags in c["args"]:
            encode_arg(w, name, schema_type, value, flags)
        w.u32(len(c["outputs"]))
        for t in c["outputs"]:
            w.tensor(t)
    return w.data()
