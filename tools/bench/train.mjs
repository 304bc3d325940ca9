// Training steps per second of attn.transformer against PyTorch (Debian's python3-torch, 1 and 2
// threads: torch.set_num_threads) on the same model, batch and data: the induction model of
// tools/model/train_induction.py (B 32, T 24, d 32, 2 attention-only layers of 4 heads, V 26) and
// a larger one (B 16, T 128, d 128, 4 layers of 4 heads, MLP 512, V 256), and tfjs-backend-wasm on
// the same; the training step's
// GFLOP/s over the machine's WebAssembly SIMD ceiling; and the wall time to an induction head
// (accuracy >= 0.99 on the predictable tokens, seed 0, one thread).
//   npm run bench:train             full: more steps per measurement
//   npm run bench:train -- --quick  a quick form (about a minute)
// tfjs-backend-wasm (one thread in Node) trains the same model built from tfjs ops (lib/tfjs-transformer.mjs).
import { spawnSync } from 'node:child_process';
import { loadAttention } from '../../web/src/index.js';
import { accuracy, inductionTask } from '../../web/model/train/tasks.js';
import { ceilingProbe } from './lib/ceiling.mjs';
import { describeMachine } from './lib/machine.mjs';
import { tfjsStepsPerSecond } from './lib/tfjs-transformer.mjs';
import { rerunWithRelaxedSimd } from './lib/relaxed-flag.mjs';

rerunWithRelaxedSimd();
const quick = process.argv.includes('--quick');

const CONFIGS = [
  { name: 'induction', B: 32, model: { vocab: 26, dModel: 32, layers: 2, heads: 4, maxLength: 24, positions: 'learned', mlp: 0 }, steps: quick ? 100 : 400, torchSteps: quick ? 50 : 200 },
  { name: 'larger', B: 16, model: { vocab: 256, dModel: 128, layers: 4, heads: 4, maxLength: 128, positions: 'learned', mlp: 512 }, steps: quick ? 4 : 12, torchSteps: quick ? 2 : 6 },
];

/** Multiply-adds x 2 of one training step (forward + backward = 3 forwards): the projections, the causal attention, the unembedding. */
function stepFlops({ B, model: m }) {
  const N = B * m.maxLength;
  const perRow = m.layers * (m.dModel * 3 * m.dModel + m.dModel * m.dModel + 2 * m.dModel * m.mlp) + m.dModel * m.vocab;
  const attention = m.layers * B * m.maxLength * (m.maxLength + 1) * m.dModel; // q k^T and p v, each over the causal half
  return 3 * 2 * (N * perRow + attention);
}

/** A fixed set of batches of a configuration: induction sequences, or random ids for the larger model. */
function batchesOf({ B, model: m }, count) {
  if (m.vocab === 26) {
    const task = inductionTask({ seed: 1, vocab: 26, length: m.maxLength });
    return Array.from({ length: count }, () => task.next(B).tokens);
  }
  let seed = 12345;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % m.vocab;
  return Array.from({ length: count }, () => ({ data: Int32Array.from({ length: B * m.maxLength }, next), shape: [B, m.maxLength] }));
}

function oursStepsPerSecond(attn, config, batches) {
  const model = attn.transformer({ ...config.model, seed: 0 });
  const optimizer = { learningRate: 3e-3, weightDecay: 0.01 };
  for (let i = 0; i < 3; i++) model.trainStep(batches[i % batches.length], { optimizer });
  const start = performance.now();
  for (let i = 0; i < config.steps; i++) model.trainStep(batches[i % batches.length], { optimizer });
  const seconds = (performance.now() - start) / 1000;
  model.dispose();
  return config.steps / seconds;
}

function torchStepsPerSecond(config, batches, threads) {
  const m = config.model;
  const job = {
    config: { vocab: m.vocab, d_model: m.dModel, layers: m.layers, heads: m.heads, max_length: m.maxLength, positions: m.positions, mlp: m.mlp },
    batches: batches.map((b) => Array.from({ length: b.shape[0] }, (_, i) => Array.from(b.data.subarray(i * b.shape[1], (i + 1) * b.shape[1])))),
    steps: config.torchSteps,
    warmup: 2,
    threads,
  };
  const run = spawnSync('/usr/bin/python3', [new URL('./train_torch.py', import.meta.url).pathname], { input: JSON.stringify(job), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) return { error: run.stderr.trim().split('\n').at(-1) };
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

/** Seconds from a fresh model (seed 0) until accuracy >= 0.99 on a probe batch's predictable tokens (checked every 50 steps). */
function timeToInductionHead(attn) {
  const task = inductionTask({ seed: 1 });
  const probe = inductionTask({ seed: 2 }).next(256);
  const model = attn.transformer({ ...CONFIGS[0].model, seed: 0 });
  const start = performance.now();
  let step = 0;
  let correct = 0;
  while (step < 4000 && correct < 0.99) {
    model.trainStep(task.next(32).tokens, { optimizer: { learningRate: 3e-3, weightDecay: 0.01 } });
    step += 1;
    if (step % 50 === 0) correct = accuracy(model.forward(probe.tokens).logits, probe, probe.predictable);
  }
  const seconds = (performance.now() - start) / 1000;
  model.dispose();
  return { seconds, step, correct };
}

const machine = describeMachine();
console.log(`machine: ${machine.text ?? machine.model}; node ${process.versions.node}${quick ? '; quick form' : ''}\n`);
const builds = [await loadAttention({ simd: true }), await loadAttention({ simd: 'relaxed' }).catch(() => null)].filter(Boolean);
const probe = await ceilingProbe({ relaxed: false });
const ceilings = [];
const rows = [];
for (const config of CONFIGS) {
  const batches = batchesOf(config, 8);
  const ours = builds.map((attn) => ({ backend: attn.backend, rate: oursStepsPerSecond(attn, config, batches) }));
  if (probe) for (let i = 0; i < 5; i++) ceilings.push(probe.read());
  const torch = [1, 2].map((threads) => torchStepsPerSecond(config, batches, threads));
  const tfjs = await tfjsStepsPerSecond(config.model, batches, config.torchSteps);
  rows.push({ config, ours, torch, tfjs });
}
const ceiling = ceilings.length ? Math.max(...ceilings) : NaN;
const torchVersion = rows.flatMap((r) => r.torch).find((t) => t.torch)?.torch ?? 'unavailable';
const rate = (x) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));
const tfjsVersion = rows.find((r) => r.tfjs.version)?.tfjs.version ?? 'unavailable';
console.log(`| model | ${rows[0].ours.map((o) => `ours ${o.backend}`).join(' | ')} | PyTorch ${torchVersion} (Debian) 1 thread | 2 threads | tfjs-wasm ${tfjsVersion} | ours / PyTorch 1 thread | ours / tfjs-wasm | training GFLOP/s (of the ${ceiling.toFixed(1)} GFLOP/s SIMD ceiling) |`);
console.log(`| --- | ${rows[0].ours.map(() => '---:').join(' | ')} | ---: | ---: | ---: | ---: | ---: | ---: |`);
for (const { config, ours, torch, tfjs } of rows) {
  const best = Math.max(...ours.map((o) => o.rate));
  const flops = stepFlops(config);
  const torchText = torch.map((t) => (t.error ? `failed: ${t.error}` : `${rate(t.steps_per_second)} steps/s`));
  const ratio = torch[0].steps_per_second ? `${(best / torch[0].steps_per_second).toFixed(2)}x` : '-';
  const tfjsText = tfjs.error ? `failed: ${tfjs.error}` : `${rate(tfjs.rate)} steps/s`;
  const tfjsRatio = tfjs.rate ? `${(best / tfjs.rate).toFixed(2)}x` : '-';
  const gflops = ours.map((o) => `${((o.rate * flops) / 1e9).toFixed(1)} (${((100 * o.rate * flops) / 1e9 / ceiling).toFixed(0)}%)`).join(' / ');
  console.log(`| ${config.name}: B ${config.B}, T ${config.model.maxLength}, d ${config.model.dModel}, L ${config.model.layers}, H ${config.model.heads}, MLP ${config.model.mlp}, V ${config.model.vocab} | ${ours.map((o) => `${rate(o.rate)} steps/s`).join(' | ')} | ${torchText.join(' | ')} | ${tfjsText} | ${ratio} | ${tfjsRatio} | ${gflops} |`);
}
console.log(`\ntfjs-wasm's loss, first and last timed step: ${rows.map((r) => `${r.config.name} ${r.tfjs.losses?.map((x) => x.toFixed(3)).join(' -> ') ?? '-'}`).join(', ')} (the induction batches can be learned; the larger model's random ids cannot)`);
const head = timeToInductionHead(builds[0]);
console.log(`\ntime to an induction head (${builds[0].backend}, one thread, seed 0): ${head.seconds.toFixed(1)} s, ${head.step} steps, accuracy ${head.correct.toFixed(4)} on the predictable tokens`);
