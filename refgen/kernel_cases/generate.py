"""Writes kernels/test/cases/<op>.<overload>.case files from real PyTorch.

Run inside the torch chroot (see README.md):
  refgen/torch_env/run.sh trixie refgen/kernel_cases/generate.py [--out DIR] [--only SUBSTR]
Every op spec lives in ops_*.py; the file format is kernels/test/cases/FORMAT.md.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import casegen  # noqa: E402
import ops_elementwise  # noqa: E402,F401
import ops_fft  # noqa: E402,F401
import ops_index  # noqa: E402,F401
import ops_more  # noqa: E402,F401
import ops_quant  # noqa: E402,F401
import ops_nn  # noqa: E402,F401
import ops_reduce  # noqa: E402,F401
import ops_shape  # noqa: E402,F401
import ops_unary  # noqa: E402,F401
import ops_sweeps  # noqa: E402,F401  (must come after the ops_* modules it extends)
from registry import SPECS  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def file_name(op_key):
    ns, rest = op_key.split("::")
    return "%s__%s.case" % (ns, rest)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(REPO, "kernels", "test", "cases"))
    p.add_argument("--only", default="", help="only ops whose key contains this")
    args = p.parse_args()
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    index = {}
    total = 0
    for key in sorted(SPECS):
        if args.only not in key:
            continue
        fn, tol = SPECS[key]
        c = casegen.OpCases(key, tol=tol)
        fn(c)
        data = c.encode(torch.__version__)
        name = file_name(key)
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        errors = sum(1 for x in c.cases if x["flags"])
        index[key] = {"file": name, "cases": len(c.cases), "expect_error": errors,
                      "bytes": len(data),
                      "errors": {x["name"]: x["error"][:200] for x in c.cases if x["flags"]}}
        total += len(data)
        print("%-45s %4d cases (%d errors) %7d bytes" % (key, len(c.cases), errors, len(data)))
    if not args.only:
        with open(os.path.join(args.out, "index.json"), "w") as f:
            json.dump({"torch": torch.__version__, "generator": "refgen/kernel_cases/generate.py",
                       "ops": index}, f, indent=1, sort_keys=True)
            f.write("\n")
    print("total %d ops, %d bytes" % (len(index), total))


if __name__ == "__main__":
    main()
