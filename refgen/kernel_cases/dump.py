"""Prints a kernel case file in readable form (plain Python 3, no torch needed).

  python3 refgen/kernel_cases/dump.py kernels/test/cases/aten__add.out.case [--data]
"""
import struct
import sys

DTYPES = {0: ("uint8", "B"), 1: ("int8", "b"), 2: ("int16", "h"), 3: ("int32", "i"),
          4: ("int64", "q"), 5: ("float16", "e"), 6: ("float32", "f"), 7: ("float64", "d"),
          11: ("bool", "?"), 15: ("bfloat16", None)}
KINDS = ["Tensor", "Int", "Double", "Bool", "IntList", "DoubleList", "BoolList", "None",
         "TensorList", "OptionalTensorList", "ScalarType", "String", "MemoryFormat"]


class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.d, self.p)
        self.p += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v

    def str(self):
        n = self.take("I")
        s = self.d[self.p:self.p + n].decode()
        self.p += n
        return s

    def tensor(self, show):
        code, ndim = self.take("B"), self.take("B")
        sizes = [self.take("q") for _ in range(ndim)]
        order = [self.take("B") for _ in range(ndim)]
        nbytes = self.take("Q")
        raw = self.d[self.p:self.p + nbytes]
        self.p += nbytes
        name, fmt = DTYPES[code]
        text = "%s%s" % (name, sizes)
        if order != list(range(ndim)):
            text += " dim_order=%s" % order
        if show and nbytes and fmt:
            n = nbytes // struct.calcsize(fmt)
            vals = struct.unpack("<%d%s" % (n, fmt), raw)
            text += " " + str([round(v, 5) if isinstance(v, float) else v for v in vals[:12]])
            text += " ..." if n > 12 else ""
        return text

    def value(self, kind, show):
        if kind == 0:
            return self.tensor(show)
        simple = {1: "q", 2: "d", 3: "B", 10: "B", 12: "B"}
        if kind in simple:
            return self.take(simple[kind])
        if kind in (4, 5, 6):
            n = self.take("I")
            return [self.take({4: "q", 5: "d", 6: "B"}[kind]) for _ in range(n)]
        if kind == 7:
            return "None"
        if kind == 8:
            return [self.tensor(show) for _ in range(self.take("I"))]
        if kind == 9:
            return [self.tensor(show) if self.take("B") else None for _ in range(self.take("I"))]
        if kind == 11:
            return repr(self.str())
        raise ValueError("bad kind %d" % kind)


def main():
    path, show = sys.argv[1], "--data" in sys.argv
    r = Reader(open(path, "rb").read())
    assert r.d[:8] == b"EMBRCASE", "bad magic"
    r.p = 8
    version, op, tv, n = r.take("I"), r.str(), r.str(), None
    n = r.take("I")
    print("%s (format v%d, torch %s): %d cases" % (op, version, tv, n))
    for _ in range(n):
        name, flags, atol, rtol = r.str(), r.take("I"), r.take("d"), r.take("d")
        print("- %s%s atol=%g rtol=%g" % (name, " [expect error]" if flags & 1 else "", atol,
                                          rtol))
        for _ in range(r.take("I")):
            an, at, af, kind = r.str(), r.str(), r.take("B"), r.take("B")
            print("    %s%s: %s = %s" % ({1: "out ", 2: "mutated "}.get(af, ""), an, KINDS[kind],
                                         r.value(kind, show)))
        for i in range(r.take("I")):
            print("    => output %d: %s" % (i, r.tensor(show)))


if __name__ == "__main__":
    main()
