"""torch_runner.py: one PyTorch-eager measurement for run_peers.py (one process per run).

  refgen/torch_env/run.sh sid benchmarks/peers/torch_runner.py SPEC.peers.json THREADS WARMUP \
      ITERATIONS OUTPUT_PREFIX

Builds the spec's nn.Module from its definition (refgen/fixtures/pt2_models.py or
peer_models.py: the same fixed-seed weights as the .pt2 fixture), eval mode, with
torch.set_num_threads(THREADS) and one inter-op thread, reads the fixture's input files once,
runs WARMUP untimed and ITERATIONS timed forward calls under torch.inference_mode(), writes the
last outputs to OUTPUT_PREFIX-<i>.bin and prints one JSON line (microseconds, median/min of the
wall time and of the process's CPU time, time.process_time_ns: every thread, preemption not
counted; os_threads is the process's thread count after the runs).
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "refgen", "fixtures"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

NP = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "uint8": np.uint8,
      "bool": np.uint8, "int8": np.int8, "float64": np.float64}


def find_spec(name, build=""):
    """The model definition the sidecar's `build` ("<file>:<name>") names; both files may
    define a model of the same name (tiny_unet: a committed 16x16 fixture in pt2_models.py,
    the peer suite's larger one in peer_models.py)."""
    import pt2_models
    specs = list(pt2_models.MODELS)
    try:
        import peer_models
        specs = peer_models.MODELS + specs if "peer_models" in build else specs + peer_models.MODELS
    except ImportError:
        pass
    for s in specs:
        if s["name"] == name:
            return s
    raise SystemExit("torch_runner: no model %r" % name)


def flat(r):
    if isinstance(r, torch.Tensor):
        return [r]
    out = []
    for x in r:
        out.extend(flat(x))
    return out


def main():
    spec_path, threads, warmup, iterations, out_prefix = sys.argv[1:6]
    with open(spec_path) as f:
        peer = json.load(f)
    torch.set_num_threads(int(threads))
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    t0 = time.perf_counter_ns()
    module = find_spec(peer["model"], peer.get("build", ""))["build"]().eval()
    inputs = []
    for e in peer["inputs"]:
        a = np.fromfile(e["file"], dtype=NP[e["dtype"]]).reshape(e["shape"]).copy()
        t = torch.from_numpy(a)
        inputs.append(t.bool() if e["dtype"] == "bool" else t)
    load_ms = (time.perf_counter_ns() - t0) / 1e6
    empty = []  # what the CPU clock reads around nothing (two reads, two wall-clock reads)
    for _ in range(201):
        c0 = time.process_time_ns()
        time.perf_counter_ns()
        time.perf_counter_ns()
        empty.append((time.process_time_ns() - c0) / 1000.0)
    times, cpu = [], []
    with torch.inference_mode():
        for _ in range(int(warmup)):
            out = module(*inputs)
        for _ in range(int(iterations)):
            cpu_start = time.process_time_ns()  # a system call: outside the wall interval
            start = time.perf_counter_ns()
            out = module(*inputs)
            end = time.perf_counter_ns()
            cpu.append((time.process_time_ns() - cpu_start) / 1000.0)
            times.append((end - start) / 1000.0)
    for i, t in enumerate(flat(out)):
        t = t.contiguous()
        if t.dtype == torch.bool:
            t = t.to(torch.uint8)
        t.numpy().tofile("%s-%d.bin" % (out_prefix, i))
    def median(values):
        v, n = sorted(values), len(values)
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    try:
        os_threads = len(os.listdir("/proc/self/task"))
    except OSError:
        os_threads = -1
    print(json.dumps({"engine": "torch", "version": torch.__version__, "load_ms": load_ms,
                      "median_us": median(times), "min_us": min(times),
                      "cpu_median_us": median(cpu), "cpu_min_us": min(cpu),
                      "cpu_mean_us": sum(cpu) / len(cpu), "cpu_clock_us": median(empty),
                      "iterations": len(times),
                      "threads": torch.get_num_threads(), "os_threads": os_threads}))


if __name__ == "__main__":
    main()
