// <attn-training>'s attributes: their defaults and ranges, checked into values, and the training
// driver's setup they make (web/model/train/driver.js). No DOM: tools/model/training-run.mjs makes
// the stored run from the same defaults.
//   readTrainingAttributes(get, say)  get(name) -> string | null; say(key, params) words an error
//                                     -> { task, layers, heads, ... } or a RangeError naming the
//                                     attribute and what it expects
//   trainingSetup(values)             -> the driver's setup

export const TRAINING_TASKS = ['induction', 'copy', 'reverse', 'sort'];

// The ranges keep a figure in a blog post small enough to train on a reader's laptop in a minute.
// The defaults are the lab's smaller induction preset (web/site/features/lab/presets.js): its
// induction head forms in a few hundred steps.
export const TRAINING_NUMBERS = {
  layers: { integer: true, min: 1, max: 4, fallback: 2 },
  heads: { integer: true, min: 1, max: 8, fallback: 2 },
  'd-model': { integer: true, min: 4, max: 128, fallback: 16 },
  mlp: { integer: true, min: 0, max: 512, fallback: 0 },
  batch: { integer: true, min: 1, max: 256, fallback: 32 },
  'learning-rate': { integer: false, min: 1e-5, max: 1, fallback: 0.01 },
  'max-steps': { integer: true, min: 1, max: 100_000, fallback: 1500 },
};

export const TRAINING_DEFAULTS = {
  task: 'induction',
  ...Object.fromEntries(Object.entries(TRAINING_NUMBERS).map(([name, { fallback }]) => [name, fallback])),
};

// A number as written in HTML: decimal, with an optional exponent ("3e-3"); not '', '0x10', 'Infinity'.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function readNumber(name, raw, say) {
  const { integer, min, max, fallback } = TRAINING_NUMBERS[name];
  if (raw === null) return fallback;
  const value = Number(raw.trim());
  const fits = DECIMAL.test(raw.trim()) && (!integer || Number.isInteger(value)) && value >= min && value <= max;
  if (!fits) throw new RangeError(say('training.bad-number', { name, kind: say(integer ? 'training.an-integer' : 'training.a-number'), min, max, value: raw }));
  return value;
}

/** The attributes' values, checked (a RangeError worded by `say` names the first bad one). */
export function readTrainingAttributes(get, say) {
  const task = get('task')?.trim() ?? TRAINING_DEFAULTS.task;
  if (!TRAINING_TASKS.includes(task)) throw new RangeError(say('training.bad-task', { tasks: TRAINING_TASKS.join(', '), value: get('task') }));
  const values = { task };
  for (const name of Object.keys(TRAINING_NUMBERS)) values[name] = readNumber(name, get(name), say);
  if (values['d-model'] % values.heads !== 0)
    throw new RangeError(say('training.bad-width', { heads: values.heads, value: get('d-model') ?? values['d-model'] }));
  return values;
}

/** Checked attribute values -> createTrainer's setup (every head its own keys and values, learned positions, seed 0). */
export function trainingSetup(values) {
  return {
    task: values.task,
    model: { layers: values.layers, heads: values.heads, kvHeads: values.heads, dModel: values['d-model'], positions: 'learned', mlp: values.mlp, seed: 0 },
    batch: values.batch,
    learningRate: values['learning-rate'],
    maxSteps: values['max-steps'],
  };
}
