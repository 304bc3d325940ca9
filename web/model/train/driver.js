// The training driver the lab and a live-training figure share: a model (on the worker pool, so
// training runs off the page's thread, or the synchronous API), a task, a fixed probe batch, and a
// loop of training steps that measures the probe every few steps: its loss curve, its accuracy,
// the attentions of the first probe sequence (L, H, T, T), each head's scores, the step at which a
// head first crossed a score's threshold, and snapshots to scrub back. No DOM: the caller draws.
//   const trainer = await createTrainer(attn, setup);   attn: loadAttention() or loadAttention({ threads })
//   trainer.listen(onUpdate); trainer.start() / pause() / step() / reset() / measure() / dispose()
//   onUpdate({ step, losses, accuracies, probe, crossings, snapshots, running })
// A snapshot keeps, besides the attentions and scores, every head's pipeline example of then
// (head-pipeline.js: X, Q, K, V of the first 16 probe tokens, some 4,000 numbers at the induction
// preset), not the parameters: those of the lab's largest model, every 50 steps, would be hundreds of MB.
import { HEAD_THRESHOLDS, headScores } from './head-scores.js';
import { headPipelineSpec, headPipelineSpecs } from './head-pipeline.js';
import { accuracy, copyTask, inductionTask, reverseTask, sortTask, textTask } from './tasks.js';

export const TASKS = ['induction', 'copy', 'reverse', 'sort', 'text'];
const PROBE_SEED = 1000; // the probe batch never meets the training batches' seeds
const PROBE_BATCH = 16;
// A synchronous model (loadAttention() without threads) answers every await at once, so the loop
// would hold the page until maxSteps: it gives the event loop a turn (input, frames) this often.
const YIELD_MS = 30;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** setup.task ('induction', ...) -> a task of seed `seed` (setup.text for 'text'). */
export function makeTask(setup, seed) {
  switch (setup.task) {
    case 'induction':
      return inductionTask({ seed, length: setup.length ?? 24 });
    case 'copy':
      return copyTask({ seed });
    case 'reverse':
      return reverseTask({ seed });
    case 'sort':
      return sortTask({ seed });
    case 'text':
      return textTask(setup.text ?? '', { seed, length: setup.length ?? 32 });
    default:
      throw new RangeError(`createTrainer: task must be one of ${TASKS.map((x) => `'${x}'`).join(', ')}, got ${String(setup.task)}`);
  }
}

/** The model configuration of a setup: { vocab, maxLength } from the task, the rest as chosen. */
export function modelConfig(setup, task) {
  const { layers, heads, kvHeads = heads, dModel, positions = 'learned', mlp = 0, seed = 0 } = setup.model;
  return { vocab: task.vocab, dModel, layers, heads, kvHeads, maxLength: task.length, positions, mlp, seed };
}

/**
 * -> a trainer of `setup` { task, text?, model: { layers, heads, kvHeads, dModel, positions, mlp,
 * seed }, batch, learningRate, probeEvery (steps between probes, default 10), snapshotEvery
 * (default 50), maxSteps (the loop stops there, default 5000) } on `attn`'s transformer.
 */
export async function createTrainer(attn, setup) {
  let task = makeTask(setup, setup.model.seed ?? 0);
  const probeBatch = makeTask(setup, PROBE_SEED).next(PROBE_BATCH);
  // Head scores need periods: the induction task's own; the other tasks get the previous-token score only.
  const periods = probeBatch.periods ?? null;
  const config = modelConfig(setup, task);
  const optimizer = { learningRate: setup.learningRate, clip: 1 };
  const probeEvery = setup.probeEvery ?? 10;
  const snapshotEvery = setup.snapshotEvery ?? 50;
  const maxSteps = setup.maxSteps ?? 5000;
  let model = await attn.transformer(config);
  const state = { step: 0, losses: [], accuracies: [], probe: null, crossings: [], snapshots: [], running: false, error: null };
  let onUpdate = () => {};
  let loop = null;

  /** The probe batch's forward with its trace -> what the page draws. */
  async function measure() {
    const { logits, trace } = await model.forward(probeBatch.tokens, { trace: true });
    const [B, L, H, T] = trace.attentions.shape;
    const scores = periods ? headScores(trace.attentions, periods) : headScores(trace.attentions, new Int32Array(B).fill(1));
    if (!periods) scores.induction = scores.induction.map((row) => row.map(() => NaN));
    const mask = probeBatch.predictable ?? probeBatch.lossMask;
    const first = { data: trace.attentions.data.slice(0, L * H * T * T), shape: [L, H, T, T] };
    const probe = {
      step: state.step,
      accuracy: accuracy(logits, probeBatch, mask),
      scores,
      attentions: first,
      tokens: Array.from(probeBatch.tokens.data.subarray(0, T)),
    };
    for (const kind of ['previousToken', 'induction']) {
      scores[kind].forEach((row, layer) =>
        row.forEach((score, head) => {
          if (!(score > HEAD_THRESHOLDS[kind])) return;
          if (state.crossings.some((c) => c.kind === kind && c.layer === layer && c.head === head)) return;
          state.crossings.push({ kind, layer, head, step: state.step, score });
        }),
      );
    }
    state.probe = probe;
    state.accuracies.push([state.step, probe.accuracy]);
    if (state.step % snapshotEvery === 0 || state.snapshots.length === 0 || state.snapshots.at(-1).step + snapshotEvery <= state.step) {
      const heads = headPipelineSpecs({
        parameters: await model.parameters(),
        config: model.config,
        tokens: probeBatch.tokens,
        trace,
        b: 0,
        labels: probeLabels(),
      });
      state.snapshots.push({ step: state.step, loss: state.losses.at(-1) ?? NaN, accuracy: probe.accuracy, attentions: first, scores, heads });
    }
    return probe;
  }

  async function trainOnce() {
    const batch = task.next(setup.batch);
    const { loss } = await model.trainStep(batch.tokens, { targets: batch.targets, lossMask: batch.lossMask, optimizer });
    state.step += 1;
    state.losses.push(loss);
    if (state.step % probeEvery === 0) await measure();
  }

  const snapshot = () => ({ ...state, config, probeBatch, task });
  const probeLabels = () => trainer.tokenLabels(Array.from(probeBatch.tokens.data.subarray(0, probeBatch.tokens.shape[1])));

  const trainer = {
    config,
    probeBatch,
    /** Token ids -> labels: letters, characters, or numbers with the separator as '|'. */
    tokenLabels(ids) {
      if (task.letters) return ids.map((id) => task.letters[id]);
      if (task.characters) return ids.map((id) => (task.characters[id] === ' ' ? '␣' : task.characters[id]));
      return ids.map((id) => (id === task.separator ? '|' : String(id)));
    },
    get model() {
      return model;
    },
    get state() {
      return snapshot();
    },
    /**
     * Head `head` of layer `layer` on the first probe sequence as a pipeline example
     * (head-pipeline.js): from the model now, or with { snapshot: i } from state.snapshots[i]'s weights.
     */
    async headExample(layer, head, { snapshot } = {}) {
      if (snapshot !== undefined) {
        const kept = Number.isInteger(snapshot) ? state.snapshots[snapshot] : undefined;
        if (!kept) throw new RangeError(`headExample: snapshot must be an integer in [0, ${state.snapshots.length}), got ${String(snapshot)}`);
        const example = kept.heads[layer]?.[head];
        if (!example)
          throw new RangeError(`headExample: layer ${String(layer)} head ${String(head)} is not a head of this ${config.layers} x ${config.heads} model`);
        return example;
      }
      const [parameters, { trace }] = await Promise.all([model.parameters(), model.forward(probeBatch.tokens, { trace: true })]);
      return headPipelineSpec({ parameters, config: model.config, tokens: probeBatch.tokens, trace, layer, head, b: 0, labels: probeLabels() });
    },
    /** Sets the function called with the state after every probe (and every start, step, reset, measure). */
    listen(callback) {
      onUpdate = callback;
    },
    /** Trains until pause() (or maxSteps), calling onUpdate after every probe. */
    start(callback = onUpdate) {
      onUpdate = callback;
      if (loop) return loop;
      state.running = true;
      loop = (async () => {
        try {
          let turn = performance.now();
          while (state.running && state.step < maxSteps) {
            await trainOnce();
            if (state.step % probeEvery === 0) onUpdate(snapshot());
            if (performance.now() - turn > YIELD_MS) {
              await nextTask();
              turn = performance.now();
            }
          }
        } catch (error) {
          state.error = error;
        } finally {
          state.running = false;
          loop = null;
          onUpdate(snapshot());
        }
      })();
      return loop;
    },
    /** Stops after the step under way; resolves once it has. */
    async pause() {
      state.running = false;
      await loop;
    },
    /** One training step and a probe (while paused). */
    async step() {
      await trainer.pause();
      await trainOnce();
      await measure();
      onUpdate(snapshot());
    },
    /** The probe before any step (call once after creating). */
    async measure() {
      await measure();
      onUpdate(snapshot());
    },
    /** A new model of the same setup: the curves, crossings and snapshots start again. */
    async reset() {
      await trainer.pause();
      await model.dispose();
      model = await attn.transformer(config);
      task = makeTask(setup, setup.model.seed ?? 0);
      Object.assign(state, { step: 0, losses: [], accuracies: [], probe: null, crossings: [], snapshots: [], error: null });
      await measure();
      onUpdate(snapshot());
    },
    async dispose() {
      await trainer.pause();
      await model.dispose();
    },
  };
  return trainer;
}

/**
 * The parameters with head `head` of layer `layer` ablated: its output zeroed, i.e. the columns
 * head * dh .. (head + 1) * dh - 1 of layers.{layer}.out.weight (d, d), which read that head's
 * slice of the concatenated heads (the output projection's bias stays). A copy; the map given is unchanged.
 */
export function ablatedParameters(parameters, config, layer, head) {
  const { layers, heads, dModel } = config;
  if (!Number.isInteger(layer) || layer < 0 || layer >= layers)
    throw new RangeError(`ablatedParameters: layer must be an integer in [0, ${layers}), got ${String(layer)}`);
  if (!Number.isInteger(head) || head < 0 || head >= heads)
    throw new RangeError(`ablatedParameters: head must be an integer in [0, ${heads}), got ${String(head)}`);
  const name = `layers.${layer}.out.weight`;
  const out = parameters[name];
  const dh = dModel / heads;
  const data = Float32Array.from(out.data);
  for (let row = 0; row < dModel; row++) data.fill(0, row * dModel + head * dh, row * dModel + (head + 1) * dh);
  return { ...parameters, [name]: { data, shape: [...out.shape] } };
}

/** A model of `config` with `parameters` on `attn` -> its loss and accuracy on `batch` (mask: predictable or lossMask). */
export async function evaluate(attn, config, parameters, batch) {
  const model = await attn.transformer(config);
  try {
    await model.setParameters(parameters);
    const { loss } = await model.gradients(batch.tokens, { targets: batch.targets, lossMask: batch.lossMask });
    const { logits } = await model.forward(batch.tokens);
    return { loss, accuracy: accuracy(logits, batch, batch.predictable ?? batch.lossMask), logits };
  } finally {
    await model.dispose();
  }
}

/** The trainer's model as safetensors' tensors and metadata (its configuration as JSON, to load it back). */
export async function modelFile(trainer) {
  return {
    tensors: await trainer.model.parameters(),
    metadata: { 'attention-lab.config': JSON.stringify(trainer.config), 'attention-lab.steps': String(trainer.state.step) },
  };
}
