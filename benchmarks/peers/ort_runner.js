// ort_runner.js: one ONNX Runtime measurement for run_peers.py (one process per run).
//
//   node ort_runner.js SPEC.peers.json THREADS WARMUP ITERATIONS OUTPUT_PREFIX
//
// Creates an InferenceSession on the spec's .onnx (CPU execution provider, intra-op threads
// THREADS, inter-op 1, sequential, all graph optimizations), builds the input tensors once
// from the fixture's input files, runs WARMUP untimed and ITERATIONS timed session.run()
// calls (each timed call = feeds -> outputs, the await included), writes the last outputs to
// OUTPUT_PREFIX-<i>.bin and prints one JSON line: times in microseconds, per-run median/min.
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
  const loadStart = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(spec.onnx, options);
  const loadNs = process.hrtime.bigint() - loadStart;
  const feeds = {};
  for (const e of spec.inputs) feeds[e.onnx_name] = readTensor(e);
  let results = null;
  for (let i = 0; i < Number(warmup); ++i) results = await session.run(feeds);
  const times = [];
  for (let i = 0; i < Number(iterations); ++i) {
    const t0 = process.hrtime.bigint();
    results = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  spec.outputs.forEach((e, i) => {
    const t = results[e.onnx_name];
    fs.writeFileSync(`${outPrefix}-${i}.bin`, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  });
  const sorted = times.slice().sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  console.log(JSON.stringify({
    engine: 'onnxruntime', version: ort.env.versions.common, load_ms: Number(loadNs) / 1e6,
    median_us: median, min_us: sorted[0], iterations: n,
  }));
}

main().catch((e) => { console.error(`ort_runner: ${e.stack || e}`); process.exit(1); });
