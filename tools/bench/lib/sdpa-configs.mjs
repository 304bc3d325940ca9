// Scaled dot-product attention configurations of issue 3 (B=1, H=8, d=64, one thread, no
// weights returned) with every contender: attention-lab (wasm-simd first: the reference of the
// check and of the ratios), onnxruntime-web with 1 and 2 threads, tfjs-backend-wasm, plain JS.
// Flop counts, the same for every contender whatever it actually computes:
//   forward           4 B H Tq Tk d (q k^T and P v)
//   causal forward    4 B H d Tq (Tq + 1) / 2: only the visible pairs j <= i; a contender that
//                     computes the masked half and discards it shows half its dense rate
//   forward+backward  14 B H Tq Tk d (FlashAttention-2's count: forward 4, backward 10, with the
//                     scores recomputed; a graph that keeps P does 12 of them)
import { contender, fill } from './contender.mjs';
import { attentionLabContenders, plainJsContender } from './local-contenders.mjs';
import { onnxruntimeContenders } from './peer-onnxruntime.mjs';
import { tfjsContenders } from './peer-tfjs.mjs';
import { contendersInWorker } from './worker-contenders.mjs';

const PASSES = [
  { key: 'forward', title: 'forward', pass: 'forward', causal: false, flops: (H, T, d) => 4 * H * T * T * d },
  { key: 'causal', title: 'causal forward', pass: 'forward', causal: true, flops: (H, T, d) => 4 * H * d * ((T * (T + 1)) / 2) },
  { key: 'forwardBackward', title: 'forward+backward', pass: 'forwardBackward', causal: false, flops: (H, T, d) => 14 * H * T * T * d },
];

// The slow contenders run at the smaller sizes only: at T = 1024 one forward+backward call takes
// seconds in plain JS or our scalar build, minutes of a run for ratios of 4 to 70 that T = 512
// already shows.
const SLOW_UP_TO = { 'wasm-scalar': 512, 'plain JS': 512, tfjs: 1024 };

/** Every contender of one configuration, ours first. */
async function sdpaContenders(modules, config, { ortThreads }) {
  const fast = (name) => config.T <= SLOW_UP_TO[name];
  const contenders = [...attentionLabContenders(modules.filter((m) => m.backend !== 'wasm-scalar' || fast('wasm-scalar')), config)];
  contenders.push(...(await onnxruntimeContenders(config, { threads: 1 })));
  for (const threads of ortThreads.filter((t) => t > 1)) {
    const url = new URL('./peer-onnxruntime.mjs', import.meta.url);
    contenders.push(...(await contendersInWorker(url, 'onnxruntimeContenders', config, { threads })));
  }
  if (fast('tfjs')) contenders.push(...(await tfjsContenders(config)));
  if (fast('plain JS')) contenders.push(plainJsContender(config));
  return contenders;
}

/** The configurations for sizes T (Tq = Tk), H heads of width d. */
export function sdpaConfigs(modules, { sizes, H = 8, d = 64, ortThreads = [1, 2] }) {
  const configs = [];
  for (const p of PASSES) {
    for (const T of sizes) {
      const n = H * T * d;
      const inputs = { q: fill(n, 1), k: fill(n, 2), v: fill(n, 3), dout: fill(n, 4) };
      const config = { pass: p.pass, causal: p.causal, H, T, d, inputs };
      configs.push({
        title: `sdpa ${p.title}, B=1 H=${H} d=${d} Tq=Tk=${T}`,
        T,
        chart: { panel: p.title, x: T },
        passKey: p.key,
        unit: 'GFLOP/s',
        work: p.flops(H, T, d),
        build: () => sdpaContenders(modules, config, { ortThreads }),
      });
    }
  }
  return configs;
}

/**
 * Call overhead of a tiny attention (q, k, v (4, 4), one head), as the explorer makes on every
 * keystroke: each timed sample is `calls` calls, reported in microseconds per call.
 */
export function overheadConfig(modules, { calls }) {
  const H = 1;
  const T = 4;
  const d = 4;
  const inputs = { q: fill(T * d, 1), k: fill(T * d, 2), v: fill(T * d, 3), dout: fill(T * d, 4) };
  const config = { pass: 'forward', causal: false, H, T, d, inputs };
  const repeated = (c) => ({
    ...contender(c, async () => {
      for (let i = 0; i < calls; i++) {
        const r = c.run();
        if (r?.then) await r; // only the asynchronous APIs pay for an await
      }
    }),
    result: c.result,
    release: c.release,
  });
  return {
    title: `call overhead: sdpa forward of q, k, v (4, 4), ${calls} calls per sample`,
    unit: 'us/call',
    work: calls,
    build: async () => {
      const contenders = [
        ...attentionLabContenders(modules, config),
        ...(await onnxruntimeContenders(config, { threads: 1 })),
        ...(await tfjsContenders(config)),
        plainJsContender(config),
      ];
      return contenders.map((c) => (c.error ? c : repeated(c)));
    },
  };
}
