// ort_runner.js: one ONNX Runtime measurement for run_peers.py (one process per run).
//
//   node ort_runner.js SPEC.peers.json THREADS WARMUP ITERATIONS OUTPUT_PREFIX
//
// Creates an InferenceSession on the spec's .onnx (CPU execution provider, intra-op threads
// THREADS, inter-op 1, sequential, all graph optimizations), builds the input tensors once
// from the fixture's input files, runs WARMUP untimed and ITERATIONS timed session.run()
// calls (each timed call = feeds -> outputs, the await included), writes the last outputs to
// OUTPUT_PREFIX-<i>.bin and prints one JSON line: times in microseconds, per-run median/min of
// the wall time and of the process's CPU time (process.cpuUsage(), user + system, every thread:
// 1 us steps, so cpu_mean_us, the total over the timed runs / their count, is given too), and
// os_threads, the process's thread count after the runs (Node's own threads included). With one
// thread, ONNX Runtime runs the graph on the calling thread (no intra-op pool threads) and
// spinning is switched off; with more, its default (workers spin between operators) is kept:
// that is what a user gets, and a spinning worker shows as CPU time.
// onnxruntime-node is found through NODE_PATH (run_peers.py points it at the install folder).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const TYPED = {
  float32: Float32Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array,
  bool: Uint8Array, int8: Int8Array, float64: Float64Array,
};

function readTensor(entry) {
  const bytes = fs.readFileSync(entry.file);
  const Ctor = TYPED[entry.dtype];
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  const data = new Ctor(copy.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
  return new ort.Tensor(entry.dtype, entry.dtype === 'bool' ? Uint8Array.from(data) : data, entry.shape);
}

async function main() {
  const [specPath, threads, warmup, iterations, outPrefix] = process.argv.slice(2);
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
  const options = {
    executionProviders: ['cpu'], intraOpNumThreads: Number(threads), interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
  };
  if (Number(threads) === 1) {
    options.extra = { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } };
  }
  const loadStart = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(spec.onnx, options);
  const loadNs = process.hrtime.bigint() - loadStart;
  const feeds = {};
  for (const e of spec.inputs) feeds[e.onnx_name] = readTensor(e);
  let results = null;
  for (let i = 0; i < Number(warmup); ++i) results = await session.run(feeds);
  const empty = [];  // what the CPU clock reads around nothing (two reads, two wall-clock reads)
  for (let i = 0; i < 201; ++i) {
    const c0 = process.cpuUsage();
    process.hrtime.bigint();
    process.hrtime.bigint();
    const c1 = process.cpuUsage(c0);
    empty.push(c1.user + c1.system);
  }
  const times = [], cpu = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < Number(iterations); ++i) {
    const c0 = process.cpuUsage();  // a system call: outside the wall interval
    const t0 = process.hrtime.bigint();
    results = await session.run(feeds);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage(c0);
    times.push(Number(t1 - t0) / 1000);
    cpu.push(c1.user + c1.system);
  }
  const cpuTotal = process.cpuUsage(cpuStart);
  spec.outputs.forEach((e, i) => {
    const t = results[e.onnx_name];
    fs.writeFileSync(`${outPrefix}-${i}.bin`, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  });
  const stats = (values) => {
    const sorted = values.slice().sort((a, b) => a - b);
    const n = sorted.length;
    return { median: n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2, min: sorted[0] };
  };
  const wall = stats(times), c = stats(cpu);
  let osThreads = -1;
  try { osThreads = fs.readdirSync('/proc/self/task').length; } catch (e) { /* not Linux */ }
  console.log(JSON.stringify({
    engine: 'onnxruntime', version: ort.env.versions.common, load_ms: Number(loadNs) / 1e6,
    median_us: wall.median, min_us: wall.min, cpu_median_us: c.median, cpu_min_us: c.min,
    cpu_mean_us: (cpuTotal.user + cpuTotal.system) / times.length, cpu_clock_us: stats(empty).median, iterations: times.length,
    threads: Number(threads), os_threads: osThreads,
  }));
}

main().catch((e) => { console.error(`ort_runner: ${e.stack || e}`); process.exit(1); });
