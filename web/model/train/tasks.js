// Seeded training tasks for attn.transformer: each makes batches { tokens, targets, lossMask } of
// shape (B, T) ready for model.trainStep(tokens, { targets, lossMask, optimizer }), the targets
// being the next tokens (targets[b, t] = tokens[b, t + 1]) and lossMask the positions whose
// prediction is the task. The same seed gives the same batches on every machine (mulberry32,
// state/random.js); each call of next() draws the following batch.
//   inductionTask   P distinct random letters (P drawn per sequence) repeated to T, every next token
//                   counted, as tools/model/train_induction.py trains; `predictable` marks t >= P
//   copyTask, reverseTask, sortTask    x (n symbols), a separator, then x copied / reversed / sorted
//   textTask        windows of T + 1 characters of a given text, every next character counted
import { uniform } from '../state/random.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** An integer in [0, n) from a uniform generator. */
const below = (random, n) => Math.floor(random() * n);

/** The first `count` of a Fisher-Yates shuffle of 0 .. n - 1. */
function shuffled(random, n, count = n) {
  const items = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = below(random, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items.slice(0, count);
}

function positiveInteger(fn, name, x, min = 1) {
  if (typeof x !== 'number') throw new TypeError(`${fn}: ${name} must be an integer >= ${min}, got ${typeof x}`);
  if (!Number.isInteger(x) || x < min) throw new RangeError(`${fn}: ${name} must be an integer >= ${min}, got ${String(x)}`);
  return x;
}

/** B for next(B): an integer >= 1. */
const batchSize = (fn, B) => positiveInteger(`${fn}: next`, 'B', B);

/** The options object of a task: undefined or a plain object, else a TypeError naming it. */
function optionsOf(fn, options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`);
  }
  return options;
}

function seedOf(fn, seed) {
  if (typeof seed !== 'number') throw new TypeError(`${fn}: seed must be an integer in [0, 2^32), got ${typeof seed}`);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) throw new RangeError(`${fn}: seed must be an integer in [0, 2^32), got ${String(seed)}`);
  return seed;
}

/**
 * The batch of B sequences of length T that `row(b, tokens, counted)` fills (tokens (T), counted
 * (T - 1): which next-token predictions count) -> { tokens, targets, lossMask }.
 */
function batchOf(B, T, row) {
  const tokens = new Int32Array(B * T);
  const targets = new Int32Array(B * T);
  const lossMask = new Uint8Array(B * T);
  for (let b = 0; b < B; b++) {
    const at = b * T;
    row(b, tokens.subarray(at, at + T), lossMask.subarray(at, at + T - 1));
    for (let t = 0; t + 1 < T; t++) targets[at + t] = tokens[at + t + 1];
  }
  return { tokens: { data: tokens, shape: [B, T] }, targets: { data: targets, shape: [B, T] }, lossMask: { data: lossMask, shape: [B, T] } };
}

/**
 * train_induction.py's task: per sequence a period P in [periods[0], periods[1]], the first P
 * letters of a shuffle of the vocabulary repeated to `length`. Every next token counts (as it
 * trains); `predictable` (B, T) marks the predictions the sequence determines (t >= P) and
 * `periods` (B) holds each P, for accuracy and head scores.
 */
export function inductionTask(options) {
  const fn = 'inductionTask';
  const { seed = 0, vocab = LETTERS.length, length = 24, periods = [5, 12] } = optionsOf(fn, options);
  const random = uniform(seedOf(fn, seed));
  positiveInteger(fn, 'vocab', vocab);
  positiveInteger(fn, 'length', length, 2);
  if (!Array.isArray(periods) || periods.length !== 2) throw new TypeError(`${fn}: periods must be an array [low, high], got ${JSON.stringify(periods)}`);
  const [low, high] = periods;
  if (!(positiveInteger(fn, 'periods[0]', low) <= positiveInteger(fn, 'periods[1]', high)) || high > vocab || high >= length) {
    throw new RangeError(`${fn}: periods must be [low, high] with 1 <= low <= high <= vocab and high < length, got [${periods}]`);
  }
  return {
    vocab,
    length,
    letters: LETTERS.length === vocab ? LETTERS : null,
    next(B) {
      batchSize(fn, B);
      const P = new Int32Array(B);
      const batch = batchOf(B, length, (b, tokens, counted) => {
        P[b] = low + below(random, high - low + 1);
        const letters = shuffled(random, vocab, P[b]);
        for (let t = 0; t < length; t++) tokens[t] = letters[t % P[b]];
        counted.fill(1);
      });
      const predictable = new Uint8Array(B * length);
      for (let b = 0; b < B; b++) for (let t = P[b]; t + 1 < length; t++) predictable[b * length + t] = 1;
      return { ...batch, periods: P, predictable: { data: predictable, shape: [B, length] } };
    },
  };
}

/**
 * x: n ids drawn (with repeats) from 0 .. symbols - 1, then a separator (id `symbols`), then f(x);
 * T = 2n + 1, vocab = symbols + 1. Only the predictions of f(x) count (query positions n .. 2n - 1).
 */
function sequenceTask(fn, transform, options) {
  const { seed = 0, symbols = 10, n = 8 } = optionsOf(fn, options);
  const random = uniform(seedOf(fn, seed));
  positiveInteger(fn, 'symbols', symbols);
  positiveInteger(fn, 'n', n);
  const length = 2 * n + 1;
  return {
    vocab: symbols + 1,
    length,
    separator: symbols,
    next(B) {
      batchSize(fn, B);
      return batchOf(B, length, (b, tokens, counted) => {
        const x = Array.from({ length: n }, () => below(random, symbols));
        tokens.set(x, 0);
        tokens[n] = symbols;
        tokens.set(transform(x), n + 1);
        counted.fill(1, n);
      });
    },
  };
}

/** The sequence copied after the separator. */
export const copyTask = (options) => sequenceTask('copyTask', (x) => x, options);
/** The sequence reversed after the separator. */
export const reverseTask = (options) => sequenceTask('reverseTask', (x) => [...x].reverse(), options);
/** The sequence sorted (ascending) after the separator. */
export const sortTask = (options) => sequenceTask('sortTask', (x) => [...x].sort((a, b) => a - b), options);

/**
 * Next-character prediction on `text`: the vocabulary is its distinct characters (sorted, by code
 * point; `characters` maps ids back), each sequence a window of `length` characters starting at a
 * random position, every next character counted. encode(string) -> ids.
 */
export function textTask(text, options) {
  const fn = 'textTask';
  const { seed = 0, length = 32 } = optionsOf(fn, options);
  if (typeof text !== 'string') throw new TypeError(`${fn}: text must be a string, got ${typeof text}`);
  const chars = [...text];
  positiveInteger(fn, 'length', length, 2);
  if (chars.length < length) throw new RangeError(`${fn}: text must hold at least length = ${length} characters, got ${chars.length}`);
  const characters = [...new Set(chars)].sort();
  const ids = new Map(characters.map((c, i) => [c, i]));
  const encoded = Int32Array.from(chars, (c) => ids.get(c));
  const random = uniform(seedOf(fn, seed));
  return {
    vocab: characters.length,
    length,
    characters,
    encode(string) {
      return Int32Array.from(string, (c) => {
        if (!ids.has(c)) throw new RangeError(`${fn}: encode: '${c}' is not a character of the text`);
        return ids.get(c);
      });
    },
    next(B) {
      batchSize(fn, B);
      return batchOf(B, length, (b, tokens, counted) => {
        const start = below(random, encoded.length - length + 1);
        tokens.set(encoded.subarray(start, start + length));
        counted.fill(1);
      });
    },
  };
}

/**
 * The share of counted positions whose most likely next token (argmax of logits (B, T, V)) is the
 * target: over `mask` (B, T) (default the batch's lossMask).
 */
export function accuracy(logits, batch, mask) {
  const fn = 'accuracy';
  const [B, T, V] = tensorOf(fn, 'logits', logits, 3);
  if (batch === null || typeof batch !== 'object')
    throw new TypeError(`${fn}: batch must be an object { targets, lossMask }, got ${batch === null ? 'null' : typeof batch}`);
  const { targets } = batch;
  mask ??= batch.lossMask;
  for (const [name, t] of [
    ['batch.targets', targets],
    [batch.lossMask === mask ? 'batch.lossMask' : 'mask', mask],
  ]) {
    if (t === null || typeof t !== 'object' || !ArrayBuffer.isView(t.data))
      throw new TypeError(`${fn}: ${name} must be a tensor { data: a typed array }, got ${t === null ? 'null' : typeof t}`);
    if (t.data.length !== B * T)
      throw new RangeError(`${fn}: ${name} must hold B * T = ${B * T} values (logits (B, T, V) = (${B}, ${T}, ${V})), got ${t.data.length}`);
  }
  let right = 0;
  let counted = 0;
  for (let n = 0; n < B * T; n++) {
    if (mask.data[n] === 0) continue;
    let best = 0;
    for (let v = 1; v < V; v++) if (logits.data[n * V + v] > logits.data[n * V + best]) best = v;
    right += best === targets.data[n] ? 1 : 0;
    counted += 1;
  }
  return counted === 0 ? NaN : right / counted;
}

/** The shape of a tensor { data, shape } of `rank` sizes whose product is data.length, else an error naming it. */
export function tensorOf(fn, name, x, rank) {
  if (x === null || typeof x !== 'object' || !ArrayBuffer.isView(x.data) || !Array.isArray(x.shape)) {
    throw new TypeError(`${fn}: ${name} must be a tensor { data: a typed array, shape }, got ${x === null ? 'null' : typeof x}`);
  }
  if (x.shape.length !== rank || x.shape.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new RangeError(`${fn}: ${name} must have ${rank} sizes >= 1, got shape [${x.shape}]`);
  }
  const size = x.shape.reduce((a, b) => a * b, 1);
  if (x.data.length !== size) throw new RangeError(`${fn}: ${name} has shape [${x.shape}] (${size} values) but holds ${x.data.length}`);
  return x.shape;
}
