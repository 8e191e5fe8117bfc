"""Builds kernel test cases by running real PyTorch ops (see README.md and
kernels/test/cases/FORMAT.md).

OpCases wraps one ATen out-variant overload: case() fills the schema defaults, derives the out
tensors from the functional overload (same shape, dtype and memory layout), runs the out
variant itself and records the results, or records that PyTorch raised.
"""
import warnings
import zlib

import torch

import case_writer as cw

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
U8, I8, I16, I32, I64, BOOL = torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool
FLOATS = [F32, F64, F16, BF16]
INTS = [U8, I8, I16, I32, I64]
ALL = FLOATS + INTS + [BOOL]
SHORT = {F32: "f32", F64: "f64", F16: "f16", BF16: "bf16", U8: "u8", I8: "i8", I16: "i16",
         I32: "i32", I64: "i64", BOOL: "bool"}

# (atol, rtol) per tolerance class and output dtype; integer and bool outputs are exact.
TOLERANCES = {
    "elementwise": {F32: (1e-5, 1e-5), F64: (1e-10, 1e-10), F16: (1e-3, 2e-3), BF16: (1e-2, 1.6e-2)},
    "reduce": {F32: (1e-4, 1e-4), F64: (1e-9, 1e-9), F16: (1e-2, 1e-2), BF16: (5e-2, 5e-2)},
    "loose": {F32: (1e-3, 1e-3), F64: (1e-7, 1e-7), F16: (3e-2, 3e-2), BF16: (1e-1, 1e-1)},
}


def short(dtype):
    return SHORT[dtype]


class GeneratorError(Exception):
    pass


_NO_DEFAULT = object()


class CustomArg:
    """A schema argument for ops torch does not define (dim_order_ops::*); mirrors the fields
    of torch's own schema Argument that OpCases uses."""

    def __init__(self, name, type_str, default=_NO_DEFAULT, is_out=False):
        self.name, self.type, self.default_value, self.is_out = name, type_str, default, is_out
        self.alias_info = None

    def has_default_value(self):
        return self.default_value is not _NO_DEFAULT


class CustomOp:
    """An op defined here by its schema and a PyTorch reference implementation that writes
    the out argument(s) (resizing them as ATen out variants do)."""

    def __init__(self, args, impl):
        self.args, self.impl = args, impl


CUSTOM_OPS = {}


class OpCases:
    def __init__(self, op_key, tol="elementwise"):
        ns, rest = op_key.split("::")
        name, overload = rest.split(".") if "." in rest else (rest, "default")
        self.op_key = op_key
        self.default_tol = tol
        if op_key in CUSTOM_OPS:
            custom = CUSTOM_OPS[op_key]
            self.op = lambda **kw: custom.impl(**kw)
            arguments = custom.args
            self.functional = None
        else:
            self.op = getattr(getattr(getattr(torch.ops, ns), name), overload)
            arguments = self.op._schema.arguments
        self.in_args = [a for a in arguments if not a.is_out]
        self.out_args = [a for a in arguments if a.is_out]
        if op_key not in CUSTOM_OPS:
            self.functional = self._find_functional(getattr(getattr(torch.ops, ns), name))
        # In-place ops (copy_, index_put_) mutate an input instead of writing an out argument.
        self.mutated = [a.name for a in self.in_args
                        if a.alias_info is not None and a.alias_info.is_write]
        if not self.out_args and not self.mutated:
            raise GeneratorError("%s has no out or mutated arguments" % op_key)
        self.gen = torch.Generator().manual_seed(zlib.crc32(op_key.encode()))
        self.cases = []
        self.names = set()

    def _find_functional(self, packet):
        want = [(a.name, str(a.type)) for a in self.in_args]
        for ov in packet.overloads():
            s = getattr(packet, ov)._schema
            if any(a.is_out for a in s.arguments):
                continue
            if [(a.name, str(a.type)) for a in s.arguments] == want:
                return getattr(packet, ov)
        return None

    # ---- inputs -----------------------------------------------------------------------
    def rnd(self, shape, dtype=F32, lo=-3.0, hi=3.0):
        if dtype == BOOL:
            return torch.rand(shape, generator=self.gen) > 0.5
        if dtype.is_floating_point:
            x = torch.rand(shape, generator=self.gen, dtype=F64) * (hi - lo) + lo
            return x.to(dtype)
        ilo, ihi = (0, 20) if dtype == U8 else (-10, 11)
        return torch.randint(ilo, ihi, shape, generator=self.gen).to(dtype)

    def pos(self, shape, dtype=F32, lo=0.1, hi=4.0):
        if not dtype.is_floating_point:
            return torch.randint(1, 10, shape, generator=self.gen).to(dtype)
        return self.rnd(shape, dtype, lo, hi)

    def randint(self, lo, hi, shape, dtype=I64):
        return torch.randint(lo, hi, shape, generator=self.gen).to(dtype)

    @staticmethod
    def special(dtype):
        """Extreme values, NaN and infinities for dtype, as a 1-D tensor."""
        if dtype == BOOL:
            return torch.tensor([True, False, True, False])
        if dtype.is_floating_point:
            fi = torch.finfo(dtype)
            v = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, fi.max, -fi.max, fi.tiny,
                 -fi.tiny, 1.5, -2.5, 1e-3, 100.0, -7.0]
            return torch.tensor(v, dtype=F64).to(dtype)
        ii = torch.iinfo(dtype)
        v = [ii.min, ii.max, 0, 1, ii.max - 1, ii.min + 1, 7, 2]
        if ii.min < 0:
            v += [-1, -7]
        return torch.tensor(v, dtype=I64).to(dtype)

    @staticmethod
    def cl(t):
        return t.contiguous(memory_format=torch.channels_last)

    # ---- cases ------------------------------------------------------------------------
    def case(this, name, *, out_dtypes=None, tol=None, expect=None, optional=False, **kw):
        """Adds one case. expect: None (record what happens), True (must raise),
        False (must succeed). optional: drop the case if PyTorch raises."""
        if name in this.names:
            raise GeneratorError("%s: duplicate case name %s" % (this.op_key, name))
        values = this._fill_defaults(name, kw)
        outs = this._make_outs(values, out_dtypes)
        inputs_before = {k: (v.clone() if isinstance(v, torch.Tensor) else v)
                         for k, v in values.items()}
        error = None
        call_kw = {}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                call_kw = dict(values)
                for a, t in zip(this.out_args, outs):
                    call_kw[a.name] = t
                for k in this.mutated:
                    call_kw[k] = values[k].clone()
                this.op(**call_kw)
        except Exception as e:  # PyTorch rejected the inputs: an expected-error case.
            error = e
        if error is not None and optional:
            return
        if (expect is True and error is None) or (expect is False and error is not None):
            # A spec that guessed PyTorch's behaviour wrong: report it and drop the case.
            print("WARN %s/%s: expect=%s but PyTorch %s" % (
                this.op_key, name, expect, "raised: %s" % error if error else "succeeded"))
            return
        this.names.add(name)
        args = [(a.name, str(a.type), inputs_before[a.name],
                 cw.ARG_FLAG_MUTATED if a.name in this.mutated else 0) for a in this.in_args]
        args += [(a.name, str(a.type), t, cw.ARG_FLAG_OUT) for a, t in zip(this.out_args, outs)]
        flat_outs = []
        for t in outs:
            flat_outs.extend(t if isinstance(t, (list, tuple)) else [t])
        # Mutated inputs come after the out tensors, in schema order.
        flat_outs += [call_kw[k] for k in this.mutated] if error is None else []
        atol, rtol = this._tolerance(flat_outs if error is None else [], tol or this.default_tol)
        this.cases.append({
            "name": name,
            "flags": cw.CASE_FLAG_EXPECT_ERROR if error is not None else 0,
            "atol": atol,
            "rtol": rtol,
            "args": args,
            "outputs": [] if error is not None else [t.clone(memory_format=torch.preserve_format)
                                                      for t in flat_outs],
            "error": str(error).splitlines()[0] if error is not None else "",
        })

    def _fill_defaults(self, name, kw):
        values = {}
        for a in self.in_args:
            if a.name in kw:
                values[a.name] = kw.pop(a.name)
            elif a.has_default_value():
                values[a.name] = a.default_value
            else:
                raise GeneratorError("%s/%s: missing argument %s" % (self.op_key, name, a.name))
        if kw:
            raise GeneratorError("%s/%s: unknown arguments %s" % (self.op_key, name, list(kw)))
        return values

    def _make_outs(self, values, out_dtypes):
        templates = None
        if self.functional is not None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = self.functional(**{k: v.clone() if isinstance(v, torch.Tensor) else v
                                            for k, v in values.items()})
                templates = list(r) if isinstance(r, (tuple, list)) else [r]
                if len(self.out_args) == 1 and "List" in str(self.out_args[0].type):
                    templates = [templates]  # one TensorList out (split_copy, unbind_copy)
            except Exception:
                templates = None
        outs = []
        for i, a in enumerate(self.out_args):
            if templates is not None and isinstance(templates[0], list):
                outs.append([self._like(t, out_dtypes[0] if out_dtypes else None)
                             for t in templates[0]])
                continue
            dtype = None
            if out_dtypes is not None:
                dtype = out_dtypes[i]
            if templates is not None and i < len(templates) and templates[i] is not None:
                outs.append(self._like(templates[i], dtype))
            else:
                outs.append(torch.empty(0, dtype=dtype or self._first_tensor_dtype(values)))
        return outs

    @staticmethod
    def _like(t, dtype=None):
        """Zeros with t's shape (and dtype unless given), channels-last when t is, otherwise
        contiguous (ExecuTorch tensors use only those two dim orders; ATen's column-major
        nonzero() result, for one, becomes contiguous)."""
        order = cw.dim_order_of(t)
        shape = list(t.shape)
        dtype = dtype or t.dtype
        if order != [0, 2, 3, 1]:
            return torch.zeros(shape, dtype=dtype)
        phys = [shape[d] for d in order]
        inv = [order.index(d) for d in range(len(order))]
        return torch.zeros(phys, dtype=dtype).permute(inv)

    @staticmethod
    def _first_tensor_dtype(values):
        for v in values.values():
            if isinstance(v, torch.Tensor):
                return v.dtype
            if isinstance(v, (list, tuple)) and v and isinstance(v[0], torch.Tensor):
                return v[0].dtype
        return F32

    @staticmethod
    def _tolerance(outs, tol_class):
        atol, rtol = 0.0, 0.0
        if tol_class == "exact":
            return atol, rtol
        for t in outs:
            if t.dtype.is_floating_point or t.dtype == torch.complex64:
                # complex64: each of the real and imaginary parts against float32's bounds
                a, r = TOLERANCES[tol_class][F32 if t.dtype == torch.complex64 else t.dtype]
                atol, rtol = max(atol, a), max(rtol, r)
        return atol, rtol

    def encode(self, torch_version):
        return cw.encode_file(self.op_key, torch_version, self.cases)
