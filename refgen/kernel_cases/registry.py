"""The table of op case builders: @op("aten::add.out") registers a function that fills an
OpCases with cases. Modules ops_*.py register themselves on import."""

SPECS = {}


def op(*op_keys, tol="elementwise"):
    def register(fn):
        for key in op_keys:
            if key in SPECS:
                raise ValueError("duplicate op spec " + key)
            SPECS[key] = (fn, tol)
        return fn
    return register
