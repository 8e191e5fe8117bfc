"""Exports the benchmark models to ONNX for the peer benchmark (benchmarks/peers/README.md).

Runs in the sid chroot (torch 2.14):
  EMBER_EXTRA_BIND=/work/large_fixtures refgen/torch_env/run.sh sid benchmarks/peers/export_onnx.py

For every model of refgen/fixtures/pt2_models.py (and benchmarks/peers/peer_models.py) that has a
core-ATen .pt2 fixture with reference input/output files, it builds the same nn.Module (same
definition, same fixed-seed weights), checks that eager PyTorch still reproduces the fixture's
reference output from the fixture's input file, and writes <out>/<model>.onnx plus
<out>/<model>.peers.json (the fixture files, dtypes, shapes, tolerance, ONNX input/output names)
that run_peers.py reads. Models with dynamic shapes or state are left out (one fixed input per
model). Files are machine-local (default <large fixtures>/peers/onnx, never committed).
"""
import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "refgen", "fixtures"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import peer_common  # noqa: E402
import pt2_models  # noqa: E402

NP_DTYPES = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "uint8": np.uint8,
             "bool": np.uint8, "int8": np.int8, "float64": np.float64}
TORCH_DTYPES = {torch.float32: "float32", torch.int64: "int64", torch.int32: "int32",
                torch.bool: "bool", torch.uint8: "uint8", torch.float64: "float64"}


# Test fixtures that are not models (formats, dtypes): no ONNX export.
NOT_MODELS = {"buffers_consts"}


def all_specs():
    specs = list(pt2_models.MODELS)
    try:
        import peer_models
        specs += peer_models.MODELS
    except ImportError:
        pass
    return [s for s in specs if s["name"] not in NOT_MODELS
            and s["dynamic_shapes"] is None and not s.get("stateful") and "core_aten" in s["dialects"]]


def flat(r):
    if isinstance(r, torch.Tensor):
        return [r]
    out = []
    for x in r:
        out.extend(flat(x))
    return out


def read_bin(path, dtype, shape):
    a = np.fromfile(path, dtype=NP_DTYPES[dtype]).reshape(shape)
    return torch.from_numpy(a.copy()) if dtype != "bool" else torch.from_numpy(a.copy()).bool()


class _BoolIsCausal:
    """torch 2.14's TorchScript tracer hands multi_head_attention_forward a traced tensor for
    is_causal, which scaled_dot_product_attention refuses (TypeError). While exporting, the
    flag is turned back into the Python bool it is (False for these models)."""

    def __enter__(self):
        import torch.nn.functional as F
        self.saved = F.scaled_dot_product_attention

        def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, *a, **kw):
            if isinstance(is_causal, torch.Tensor):
                is_causal = bool(is_causal)
            return self.saved(q, k, v, attn_mask, dropout_p, is_causal, *a, **kw)
        F.scaled_dot_product_attention = sdpa
        return self

    def __exit__(self, *exc):
        import torch.nn.functional as F
        F.scaled_dot_product_attention = self.saved
        return False


def export_one(spec, fixture, out_dir, opset):
    torch.manual_seed(0)
    module = spec["build"]()
    inputs = spec["cases"][0]
    pt2_dir, base = fixture
    in_entries = []
    for i, t in enumerate(inputs):
        path = os.path.join(pt2_dir, "%s.input%d.bin" % (base, i))
        dtype = TORCH_DTYPES[t.dtype]
        got = read_bin(path, dtype, list(t.shape))
        if not torch.equal(got, t):
            raise RuntimeError("%s: input %d differs from the model's case 0" % (base, i))
        in_entries.append({"file": path, "dtype": dtype, "shape": list(t.shape),
                           "onnx_name": "input%d" % i})
    with torch.no_grad():
        want = flat(module(*inputs))
    out_entries = []
    atol, rtol = spec["tolerance"]
    for i, t in enumerate(want):
        path = os.path.join(pt2_dir, "%s.output%d.bin" % (base, i))
        dtype = TORCH_DTYPES[t.dtype]
        ref = read_bin(path, dtype, list(t.shape))
        diff = (ref.double() - t.double()).abs().max().item()
        if diff > atol:
            raise RuntimeError("%s: eager output %d differs from the reference by %g" % (base, i, diff))
        out_entries.append({"file": path, "dtype": dtype, "shape": list(t.shape),
                            "onnx_name": "output%d" % i})
    onnx_path = os.path.join(out_dir, spec["name"] + ".onnx")
    with warnings.catch_warnings(), _BoolIsCausal():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, tuple(inputs), onnx_path, dynamo=False, opset_version=opset,
                          input_names=[e["onnx_name"] for e in in_entries],
                          output_names=[e["onnx_name"] for e in out_entries],
                          do_constant_folding=True)
    sidecar = {
        "model": spec["name"], "description": spec["description"],
        "pt2": os.path.join(pt2_dir, base + ".pt2"), "pt2_base": base,
        "onnx": onnx_path, "onnx_opset": opset, "onnx_exporter": "torch.onnx.export(dynamo=False)",
        "torch": torch.__version__, "inputs": in_entries, "outputs": out_entries,
        "tolerance": {"atol": atol, "rtol": rtol},
        "build": "%s:%s" % (spec.get("source", "refgen/fixtures/pt2_models.py"), spec["name"]),
    }
    with open(os.path.join(out_dir, spec["name"] + ".peers.json"), "w") as f:
        json.dump(sidecar, f, indent=1, sort_keys=True)
        f.write("\n")
    return onnx_path


def write_fixture(spec):
    """Writes a peer_models.py model's core-ATen .pt2 and case-0 reference files with
    refgen/fixtures/generate_pt2.py's own code into <large fixtures>/pt2."""
    import discrimination
    import generate_pt2
    out = os.path.join(peer_common.large_fixtures_dir(REPO), "pt2")
    os.makedirs(out, exist_ok=True)
    base, _ = generate_pt2.write_model(spec, "core_aten", out, "external",
                                       discrimination.measure(spec))
    print("wrote %s/%s.pt2" % (out, base))
    return out, base


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="", help="default: <peers work dir>/onnx")
    p.add_argument("--only", default="", help="comma-separated model names")
    p.add_argument("--opset", type=int, default=17)
    p.add_argument("--large-fixtures", default="",
                   help="the large fixtures directory (run.sh clears the environment, so "
                        "$EMBER_LARGE_FIXTURES_DIR does not reach the chroot; needed when the "
                        "checkout is not beside it, e.g. a worktree)")
    args = p.parse_args()
    if args.large_fixtures:
        os.environ["EMBER_LARGE_FIXTURES_DIR"] = args.large_fixtures
    if not args.out:
        args.out = os.path.join(peer_common.work_dir(REPO), "onnx")
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    only = [n for n in args.only.split(",") if n]
    for spec in all_specs():
        if only and spec["name"] not in only:
            continue
        fixture = peer_common.find_fixture(REPO, spec["name"])
        if fixture is None and spec.get("source") == "benchmarks/peers/peer_models.py":
            fixture = write_fixture(spec)
        if fixture is None:
            print("skip %-28s (no core_aten .pt2 fixture with references)" % spec["name"])
            continue
        try:
            path = export_one(spec, fixture, args.out, args.opset)
        except torch.onnx.errors.UnsupportedOperatorError as e:  # e.g. antialiased resampling
            print("skip %-28s (ONNX opset %d cannot express it: %s)"
                  % (spec["name"], args.opset, str(e).splitlines()[0]))
            continue
        print("%-28s %s (%d bytes) from %s" % (spec["name"], path, os.path.getsize(path), fixture[1]))


if __name__ == "__main__":
    main()
