// The stored run <attn-training> shows under prefers-reduced-motion (web/elements/training-run.json):
// the element's default setup trained in Node by the element's own code, the training driver
// (web/model/train/driver.js) on the public API's loadAttention() (the SIMD core, no threads), with
// the same seeds, so the file is what the live figure would show. It keeps the loss of every step
// and a few snapshots of the probe: the attentions of its first sequence (L, H, T, T), rounded to
// 2 decimals (as a figure shows them), the head scores and the probe accuracy.
//   node tools/model/training-run.mjs [--steps 1200] [--out web/elements/training-run.json]
import { writeFileSync } from 'node:fs';
import { loadAttention } from '../../web/src/index.js';
import { createTrainer } from '../../web/model/train/driver.js';
import { TRAINING_DEFAULTS, trainingSetup } from '../../web/elements/training-setup.js';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const steps = Number(argument('steps', 1200));
const out = argument('out', new URL('../../web/elements/training-run.json', import.meta.url).pathname);
// The steps whose snapshots are kept: before the heads form, while they form, after.
const KEEP = [0, 100, 200, 300, 350, 400, 500, 800, 1200].filter((s) => s <= steps);

const round = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);

const setup = { ...trainingSetup(TRAINING_DEFAULTS), maxSteps: steps, snapshotEvery: 50 };
const attn = await loadAttention({ simd: true });
const trainer = await createTrainer(attn, setup);
const started = performance.now();
await trainer.measure();
const kept = [];
const keep = (state) => {
  const probe = state.probe;
  if (!probe || !KEEP.includes(probe.step) || kept.some((k) => k.step === probe.step)) return;
  kept.push({
    step: probe.step,
    loss: round(state.losses.at(-1) ?? NaN),
    accuracy: round(probe.accuracy),
    scores: {
      previousToken: probe.scores.previousToken.map((r) => r.map((x) => round(x))),
      induction: probe.scores.induction.map((r) => r.map((x) => round(x))),
    },
    attentions: { shape: probe.attentions.shape, data: Array.from(probe.attentions.data, (x) => round(x, 2)) },
  });
};
keep(trainer.state);
await trainer.start(keep);
const seconds = (performance.now() - started) / 1000;
const state = trainer.state;
const run = {
  about: `A real run of <attn-training>'s default setup, made by tools/model/training-run.mjs: web/model/train/driver.js on loadAttention({ simd: true }) in Node ${process.version}, ${state.step} steps in ${seconds.toFixed(0)} s. Losses: every step's training loss (4 decimals). Snapshots: the probe's first sequence's attentions (L, H, T, T, 2 decimals), head scores and probe accuracy at the steps listed.`,
  setup: { task: setup.task, model: setup.model, batch: setup.batch, learningRate: setup.learningRate },
  tokens: trainer.tokenLabels(state.probe.tokens),
  losses: state.losses.map((x) => round(x, 4)),
  crossings: state.crossings.map((c) => ({ ...c, score: round(c.score) })),
  snapshots: kept,
};
writeFileSync(out, `${JSON.stringify(run)}\n`);
await trainer.dispose();
console.log(`${out}: ${state.step} steps in ${seconds.toFixed(1)} s, final loss ${state.losses.at(-1).toFixed(3)}, ${kept.length} snapshots`);
console.log(state.crossings.map((c) => `L${c.layer} H${c.head} ${c.kind} at step ${c.step}`).join('\n'));
