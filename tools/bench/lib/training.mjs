// The training table of npm run bench: steps per second of attn.transformer's training step against
// PyTorch (Debian's python3-torch, 1 and 2 threads: torch.set_num_threads; train_torch.py) and
// tfjs-backend-wasm (one thread in Node, the same model from tfjs ops: tfjs-transformer.mjs) on the
// same model, batches and AdamW step: the induction model of tools/model/train_induction.py (B 32,
// T 24, d 32, 2 attention-only layers of 4 heads, V 26) and a larger one (B 16, T 128, d 128, 4
// layers of 4 heads, MLP 512, V 256); the step's GFLOP/s over the machine's wasm SIMD ceiling; and
// the wall time to an induction head (accuracy >= 0.99 on the predictable tokens, seed 0, one thread).
import { spawnSync } from 'node:child_process';
import { accuracy, inductionTask } from '../../../web/model/train/tasks.js';
import { tfjsStepsPerSecond } from './tfjs-transformer.mjs';

/** The two models, with the steps each contender is timed over (peers take fewer: they are slower). */
function configs(quick) {
  return [
    { name: 'induction', B: 32, model: { vocab: 26, dModel: 32, layers: 2, heads: 4, maxLength: 24, positions: 'learned', mlp: 0 }, steps: quick ? 60 : 300, peerSteps: quick ? 20 : 100 },
    { name: 'larger', B: 16, model: { vocab: 256, dModel: 128, layers: 4, heads: 4, maxLength: 128, positions: 'learned', mlp: 512 }, steps: quick ? 2 : 8, peerSteps: quick ? 1 : 3 },
  ];
}

/** Multiply-adds x 2 of one training step (forward + backward = 3 forwards): the projections, the causal attention, the unembedding. */
export function stepFlops({ B, model: m }) {
  const N = B * m.maxLength;
  const perRow = m.layers * (m.dModel * 3 * m.dModel + m.dModel * m.dModel + 2 * m.dModel * m.mlp) + m.dModel * m.vocab;
  const attention = m.layers * B * m.maxLength * (m.maxLength + 1) * m.dModel; // q k^T and p v, each over the causal half
  return 3 * 2 * (N * perRow + attention);
}

/** A fixed set of batches of a configuration: induction sequences, or random ids for the larger model. */
function batchesOf({ name, B, model: m }, count) {
  if (name === 'induction') {
    const task = inductionTask({ seed: 1, vocab: m.vocab, length: m.maxLength });
    return Array.from({ length: count }, () => task.next(B).tokens);
  }
  let seed = 12345;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % m.vocab;
  return Array.from({ length: count }, () => ({ data: Int32Array.from({ length: B * m.maxLength }, next), shape: [B, m.maxLength] }));
}

const OPTIMIZER = { learningRate: 3e-3, weightDecay: 0.01 };

function oursStepsPerSecond(attn, config, batches) {
  const model = attn.transformer({ ...config.model, seed: 0 });
  model.trainStep(batches[0], { optimizer: OPTIMIZER }); // the warm-up step
  const start = performance.now();
  for (let i = 0; i < config.steps; i++) model.trainStep(batches[i % batches.length], { optimizer: OPTIMIZER });
  const seconds = (performance.now() - start) / 1000;
  model.dispose();
  return config.steps / seconds;
}

/** PyTorch's steps per second at each thread count: [{ steps_per_second, torch } or { error }]. */
function torchStepsPerSecond(config, batches, threads) {
  const m = config.model;
  const job = {
    config: { vocab: m.vocab, d_model: m.dModel, layers: m.layers, heads: m.heads, max_length: m.maxLength, positions: m.positions, mlp: m.mlp },
    batches: batches.map((b) => Array.from({ length: b.shape[0] }, (_, i) => Array.from(b.data.subarray(i * b.shape[1], (i + 1) * b.shape[1])))),
    steps: config.peerSteps,
    warmup: 1,
    threads,
  };
  const run = spawnSync('/usr/bin/python3', [new URL('../train_torch.py', import.meta.url).pathname], { input: JSON.stringify(job), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) {
    const error = (run.error?.message ?? run.stderr.trim().split('\n').at(-1)) || `exit ${run.status}`;
    return threads.map(() => ({ error }));
  }
  const { steps_per_second: rates, torch } = JSON.parse(run.stdout.trim().split('\n').at(-1));
  return rates.map((r) => ({ steps_per_second: r, torch }));
}

/** Seconds from a fresh model (seed 0) until accuracy >= 0.99 on a probe batch's predictable tokens (checked every 50 steps). */
function timeToInductionHead(attn, model) {
  const task = inductionTask({ seed: 1 });
  const probe = inductionTask({ seed: 2 }).next(256);
  const transformer = attn.transformer({ ...model, seed: 0 });
  const start = performance.now();
  let step = 0;
  let correct = 0;
  while (step < 4000 && correct < 0.99) {
    transformer.trainStep(task.next(32).tokens, { optimizer: OPTIMIZER });
    step += 1;
    if (step % 50 === 0) correct = accuracy(transformer.forward(probe.tokens).logits, probe, probe.predictable);
  }
  const seconds = (performance.now() - start) / 1000;
  transformer.dispose();
  return { seconds, step, correct };
}

/**
 * Times every contender on both models, then the induction head on builds[0]. builds: our one-thread
 * modules. -> { rows: [{ config, ours: [{ backend, rate }], torch: [1 thread, 2 threads], tfjs }], head }
 */
export async function measureTraining(builds, { quick }) {
  const rows = [];
  for (const config of configs(quick)) {
    const batches = batchesOf(config, 8);
    const ours = builds.map((attn) => ({ backend: attn.backend, rate: oursStepsPerSecond(attn, config, batches) }));
    const torch = torchStepsPerSecond(config, batches, [1, 2]);
    const tfjs = await tfjsStepsPerSecond(config.model, batches, config.peerSteps);
    rows.push({ config, ours, torch, tfjs });
  }
  return { rows, head: { backend: builds[0].backend, ...timeToInductionHead(builds[0], rows[0].config.model) } };
}

const rate = (x) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));
const ratio = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : '-');

/** measureTraining's result as Markdown lines: the table (GFLOP/s over `ceiling`, the mul+add one) and the induction head. */
export function trainingMarkdown({ rows, head }, ceiling) {
  const torchVersion = rows.flatMap((r) => r.torch).find((t) => t.torch)?.torch ?? 'unavailable';
  const tfjsVersion = rows.find((r) => r.tfjs.version)?.tfjs.version ?? 'unavailable';
  const lines = [
    `| model | ${rows[0].ours.map((o) => `ours ${o.backend}`).join(' | ')} | PyTorch ${torchVersion} (Debian) 1 thread | 2 threads | tfjs-wasm ${tfjsVersion} | ours / PyTorch 1 thread | ours / tfjs-wasm | training GFLOP/s (of the ${ceiling.toFixed(1)} GFLOP/s mul+add ceiling) |`,
    `| --- | ${rows[0].ours.map(() => '---:').join(' | ')} | ---: | ---: | ---: | ---: | ---: | ---: |`,
  ];
  for (const { config, ours, torch, tfjs } of rows) {
    const best = Math.max(...ours.map((o) => o.rate));
    const m = config.model;
    const torchText = torch.map((t) => (t.error ? `failed: ${t.error}` : `${rate(t.steps_per_second)} steps/s`));
    const tfjsText = tfjs.error ? `failed: ${tfjs.error}` : `${rate(tfjs.rate)} steps/s`;
    const gflops = ours.map((o) => {
      const g = (o.rate * stepFlops(config)) / 1e9;
      return `${g.toFixed(1)} (${((100 * g) / ceiling).toFixed(0)}%)`;
    });
    lines.push(
      `| ${config.name}: B ${config.B}, T ${m.maxLength}, d ${m.dModel}, L ${m.layers}, H ${m.heads}, MLP ${m.mlp}, V ${m.vocab} | ${ours.map((o) => `${rate(o.rate)} steps/s`).join(' | ')} | ` +
        `${torchText.join(' | ')} | ${tfjsText} | ${ratio(best, torch[0].steps_per_second)} | ${ratio(best, tfjs.rate)} | ${gflops.join(' / ')} |`,
    );
  }
  lines.push(
    '',
    `Steps timed after one warm-up step: ours ${rows.map((r) => `${r.config.steps} (${r.config.name})`).join(', ')}; PyTorch and tfjs-wasm ${rows.map((r) => `${r.config.peerSteps} (${r.config.name})`).join(', ')}.`,
    `tfjs-wasm's loss, first and last step: ${rows.map((r) => `${r.config.name} ${r.tfjs.losses?.map((x) => x.toFixed(3)).join(' -> ') ?? '-'}`).join(', ')} (the induction batches can be learned; the larger model's random ids cannot).`,
    '',
    `Time to an induction head (${head.backend}, one thread, seed 0): ${head.seconds.toFixed(1)} s, ${head.step} steps, accuracy ${head.correct.toFixed(4)} on the predictable tokens.`,
  );
  return lines;
}
