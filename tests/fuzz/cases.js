// Random cases for the fuzz suite (not a test file): fast-check arbitraries that draw a whole call
// as small plain numbers and names (a "spec", printed whole on failure), and build() which turns a
// spec into the call's arguments, the float64 reference options and what the call must do.
//
// A spec draws sizes (1, the simd128 width 4 and 4 +- 1, 8 +- 1, 16 +- 1, some across the fused
// kernel's blocks), grouped-query head ratios, ranks 1..4, every mask kind (validLens (B) and
// (B, Tq), causal corners, bool and float attnMask broadcast from any subset of the axes, maskFill,
// sliding windows and ALiBi slopes),
// options, element styles (values.js) and input forms, and at most one fault: a single thing wrong
// (a tensor, a size, an option, a mask) whose error must name the argument it broke.
import fc from 'fast-check';
import { maskedSoftmaxReference } from '../reference/index.js';
import { FORMS, LINEAR_STYLES, STYLES, inForm, makeTensor } from './values.js';

const size = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(1, 2, 3, 4, 5) },
  { weight: 3, arbitrary: fc.constantFrom(7, 8, 9) },
  { weight: 1, arbitrary: fc.constantFrom(15, 16, 17) },
);
const longSize = fc.oneof({ weight: 9, arbitrary: size }, { weight: 1, arbitrary: fc.constantFrom(31, 33, 64, 65, 127) });
const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const tensorSpec = (styles) => fc.record({ style: fc.constantFrom(...styles), seed, form: fc.constantFrom(...FORMS) });

const maskSpec = fc.record({
  validLens: fc.option(fc.record({ perRow: fc.boolean(), seed, form: fc.constantFrom('nested', 'int32', 'tensor') }), { freq: 2 }),
  causal: fc.constantFrom(undefined, undefined, false, true, 'top-left', 'bottom-right'),
  attnMask: fc.option(
    fc.record({
      kind: fc.constantFrom('bool', 'float'),
      keep: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), // which visible axes the mask has (others 1)
      drop: fc.nat(4), // leading axes left out (right-aligned broadcast)
      seed,
    }),
    { freq: 2 },
  ),
  maskFill: fc.constantFrom(undefined, undefined, undefined, -1e6, 0, -3.5, 2),
  // Sliding window sides (-1: open) and ALiBi: the slope of head h is alibi 2^-h (exact in float32,
  // so the float64 reference adds the same bias), given as an array or a Float32Array.
  window: fc.option(fc.tuple(fc.integer({ min: -1, max: 5 }), fc.integer({ min: -1, max: 5 })), { freq: 3 }),
  alibi: fc.option(fc.record({ slope: fc.constantFrom(1, 0.5, 0.0625), typed: fc.boolean() }), { freq: 3 }),
});

/** Faults: the kind, and a number that picks the target and the bad value among the applicable. */
export const FAULT_KINDS = [
  'nan',
  'infinity',
  'length',
  'zero-dim',
  'axis',
  'rank',
  'type',
  'option-value',
  'flag-value',
  'unknown-option',
  'options-type',
  'validLens',
  'attnMask-shape',
  'attnMask-value',
  'attnMask-type',
  'causal',
  'scoring',
  'params-missing',
  'params-extra',
  'dot-only-option',
];
/** Faults of the known findings of issue 8 (now fixed; guarded by known-findings.test.js). */
export const KNOWN_FAULT_KINDS = ['float32-option', 'prototype-name', 'backward-forward-option', 'inherited-option', 'polluted-prototype', 'changing-getter'];
const fault = (kinds) => fc.option(fc.record({ kind: fc.constantFrom(...kinds), pick: fc.nat(1 << 20) }), { freq: 3 });

/** An attention-family call: scaledDotProductAttention, attention, additiveAttention, or a backward. */
export const attentionSpec = (kinds = FAULT_KINDS) =>
  fc
    .record({
      op: fc.constantFrom('scaledDotProductAttention', 'attention', 'attention', 'additiveAttention'),
      backward: fc.boolean(),
      scoring: fc.constantFrom('dot', 'scaled-dot', 'general', 'additive', 'concat'),
      rank: fc.constantFrom(2, 3, 4, 4),
      B: fc.constantFrom(1, 1, 2, 3),
      Hkv: fc.constantFrom(1, 1, 2, 3),
      group: fc.constantFrom(1, 1, 2, 3, 4),
      Tq: size,
      Tk: longSize,
      dq: size,
      dk: size,
      dv: size,
      h: size,
      q: tensorSpec(STYLES),
      k: tensorSpec(STYLES),
      v: tensorSpec(LINEAR_STYLES),
      gradOutput: tensorSpec(LINEAR_STYLES),
      params: tensorSpec(STYLES),
      mask: maskSpec,
      scale: fc.option(fc.constantFrom(0.05, 0.3, 1, 2.5), { freq: 3 }),
      softcap: fc.option(fc.constantFrom(0, 0.5, 5, 50), { freq: 3 }),
      dropout: fc.option(fc.constantFrom(0, 0.1, 0.5), { freq: 4 }),
      seed: fc.option(fc.nat(1000), { freq: 3 }),
      returnWeights: fc.boolean(),
      trace: fc.boolean(),
      returnLse: fc.boolean(),
      saved: fc.boolean(),
      fault: fault(kinds),
    })
    .map(normalise);

/** maskedSoftmax or its backward on x of rank 1..4. */
export const softmaxSpec = (kinds = FAULT_KINDS) =>
  fc
    .record({
      op: fc.constantFrom('maskedSoftmax', 'maskedSoftmaxBackward'),
      rank: fc.constantFrom(1, 2, 3, 4),
      B: fc.constantFrom(1, 2, 3),
      H: fc.constantFrom(1, 2, 3),
      Tq: size,
      Tk: longSize,
      x: tensorSpec([...STYLES, 'wide', 'huge']),
      gradWeights: tensorSpec(LINEAR_STYLES),
      negativeInfinity: fc.boolean(),
      mask: maskSpec,
      fault: fault(kinds),
    })
    .map((s) => ({ ...s, family: 'softmax', ...(s.rank < 4 ? { H: 1 } : {}), ...(s.rank < 3 ? { B: 1 } : {}), ...(s.rank < 2 ? { Tq: 1 } : {}) }));

/** Sizes consistent with the op: dot scorings share d, ranks hide axes, options only where they apply. */
function normalise(s) {
  const out = { ...s, family: 'attention' };
  if (s.op === 'scaledDotProductAttention') out.scoring = 'scaled-dot';
  if (s.op === 'additiveAttention') out.scoring = 'additive';
  const dot = out.scoring === 'dot' || out.scoring === 'scaled-dot';
  if (dot) out.dk = out.dq;
  if (out.scoring !== 'additive') out.h = 0;
  if (s.rank < 4) [out.Hkv, out.group] = [1, 1];
  if (s.rank < 3) out.B = 1;
  out.H = out.Hkv * out.group;
  if (!dot) [out.softcap, out.dropout] = [null, null];
  if (s.op === 'additiveAttention') out.scale = null; // additiveAttention takes no scale
  if (out.dropout === null) out.seed = null; // a seed without dropout is allowed but says nothing
  if (s.op !== 'scaledDotProductAttention') out.returnLse = false;
  if (s.backward) [out.returnWeights, out.trace, out.returnLse] = [false, false, false];
  if (s.op !== 'scaledDotProductAttention' || !s.backward) out.saved = false;
  if (s.op === 'additiveAttention') out.returnLse = false;
  return out;
}

// ---- building a spec into a call ----

const PARAM_SHAPES = {
  general: (s) => ({ w: [s.dq, s.dk] }),
  additive: (s) => ({ wq: [s.dq, s.h], wk: [s.dk, s.h], wv: [s.h] }),
  concat: (s) => ({ w: [s.dq + s.dk] }),
};

/** One slope per head (H of the scores: 1 below rank 4), halving from head to head. */
function alibiOf(spec, s) {
  if (!spec) return undefined;
  const slopes = Array.from({ length: s.H }, (_, h) => spec.slope * 2 ** -h);
  return spec.typed ? Float32Array.from(slopes) : slopes;
}

/** The visible axes of the scores (B, H, Tq, Tk) in rank r. */
const SCORE_AXES = { 1: [3], 2: [2, 3], 3: [0, 2, 3], 4: [0, 1, 2, 3] };

function shapesOf(s) {
  if (s.family === 'softmax') {
    const full = [s.B, s.H, s.Tq, s.Tk];
    const x = SCORE_AXES[s.rank].map((a) => full[a]);
    return { x, weights: x, gradWeights: x, scores: full };
  }
  const lead = s.rank === 4 ? [s.B] : s.rank === 3 ? [s.B] : [];
  const heads = (n) => (s.rank === 4 ? [n] : []);
  return {
    q: [...lead, ...heads(s.H), s.Tq, s.dq],
    k: [...lead, ...heads(s.Hkv), s.Tk, s.dk],
    v: [...lead, ...heads(s.Hkv), s.Tk, s.dv],
    gradOutput: [...lead, ...heads(s.H), s.Tq, s.dv],
    scores: [s.B, s.H, s.Tq, s.Tk],
    params: PARAM_SHAPES[s.scoring]?.(s) ?? {},
  };
}

/** validLens values: 0..Tk + 2 (longer than Tk means Tk). */
function validLensOf(spec, s) {
  if (!spec) return undefined;
  const rand = makeTensor([s.B * (spec.perRow ? s.Tq : 1)], 'unit', spec.seed).data;
  const lens = Array.from(rand, (u) => Math.floor(((u + 2) / 4) * (s.Tk + 3)));
  const shape = spec.perRow ? [s.B, s.Tq] : [s.B];
  if (spec.form === 'int32' && !spec.perRow) return Int32Array.from(lens);
  if (spec.form === 'tensor') return { data: Float32Array.from(lens), shape };
  return spec.perRow ? Array.from({ length: s.B }, (_, b) => lens.slice(b * s.Tq, (b + 1) * s.Tq)) : lens;
}

const FLOAT_MASK_VALUES = [0, 0, 0, -Infinity, -1, 0.5, 2, -1e4, 5];

function attnMaskOf(spec, s, scoresShape) {
  if (!spec) return undefined;
  const visible = SCORE_AXES[s.rank].map((a) => scoresShape[a]);
  const shape = visible.map((n, a) => (spec.keep[a] ? n : 1)).slice(Math.min(spec.drop, visible.length));
  const u = makeTensor(shape, 'unit', spec.seed).data;
  const data =
    spec.kind === 'bool'
      ? Uint8Array.from(u, (x) => (x > -1.2 ? 1 : 0)) // 70 % may attend: fully masked rows happen too
      : Float32Array.from(u, (x) => FLOAT_MASK_VALUES[Math.floor(((x + 2) / 4) * FLOAT_MASK_VALUES.length)]);
  return { data, shape };
}

/**
 * spec -> { fn, args (the call's arguments), inputs (what must not change), ref (tensors and
 * options for the reference), expect: null (a result) | { names, known? } (an error) }.
 */
export function build(s) {
  const shapes = shapesOf(s);
  const tensors = {};
  const names =
    s.family === 'softmax' ? (s.op === 'maskedSoftmax' ? ['x'] : ['weights', 'gradWeights']) : ['q', 'k', 'v', ...(s.backward ? ['gradOutput'] : [])];
  for (const name of names) {
    const specName = s.family === 'softmax' ? (name === 'gradWeights' ? 'gradWeights' : 'x') : name;
    tensors[name] = makeTensor(shapes[name], s[specName].style, s[specName].seed + (name === 'weights' ? 1 : 0));
  }
  if (s.family === 'softmax' && s.negativeInfinity && s.op === 'maskedSoftmax') {
    const x = tensors.x.data;
    for (let i = 0; i < x.length; i += 3) x[i] = -Infinity; // masked scores, as a trace passes them on
  }
  if (s.op === 'maskedSoftmaxBackward') {
    // Without a mask, any weights test the formula dx = y (dy - sum y dy). With one, the weights are
    // what the forward makes under that mask (zeros at masked keys unless maskFill): the backward
    // may, and the core does, leave the masked keys out of the row's sum.
    const masked = Object.values(s.mask).some((m) => m !== undefined && m !== null && m !== false);
    tensors.weights = masked ? null : makeTensor(shapes.weights, 'unit', s.x.seed);
  }
  const params = {};
  for (const [name, shape] of Object.entries(shapes.params ?? {})) params[name] = makeTensor(shape, s.params.style, s.params.seed + name.length);
  const mask = {
    validLens: validLensOf(s.mask.validLens, s),
    causal: s.mask.causal,
    attnMask: attnMaskOf(s.mask.attnMask, s, shapes.scores),
    maskFill: s.mask.maskFill,
    window: s.mask.window ?? undefined,
    alibi: alibiOf(s.mask.alibi, s),
  };
  if (tensors.weights === null) {
    const y = maskedSoftmaxReference(makeTensor(shapes.weights, 'unit', s.x.seed), mask).y;
    tensors.weights = { data: Float32Array.from(y), shape: [...shapes.weights] };
  }
  const ref = { tensors: { ...tensors }, params, options: { ...mask } };
  const options = {};
  for (const [key, value] of Object.entries(mask)) if (value !== undefined) options[key] = value;
  if (s.family === 'attention') {
    for (const key of ['scale', 'softcap', 'dropout', 'seed']) if (s[key] !== null && s[key] !== undefined) options[key] = ref.options[key] = s[key];
    for (const key of ['returnWeights', 'trace', 'returnLse']) if (s[key]) options[key] = true;
    ref.options.scoring = s.scoring;
    ref.options.params = params;
    if (s.op === 'attention') {
      options.scoring = s.scoring;
      if (Object.keys(params).length > 0) options.params = { ...params };
    }
    if (s.op === 'additiveAttention') Object.assign(options, params);
  }
  // the call's arguments in the spec's forms
  const form = (name) => (s.family === 'softmax' ? (name === 'gradWeights' ? s.gradWeights.form : s.x.form) : s[name].form);
  const args = Object.fromEntries(names.map((name) => [name, inForm(tensors[name], form(name))]));
  const call = { fn: s.backward ? `${s.op}Backward` : s.op, names, args, options, ref, expect: null, shapes, wantSaved: Boolean(s.saved) };
  if (s.fault) applyFault(call, s);
  return call;
}

// ---- faults ----

const pickOf = (list, pick) => list[pick % list.length];

/** The arguments a broken tensor may be reported under (a size mismatch is seen at its partner). */
function partnersOf(name, call) {
  const paramNames = Object.keys(call.ref.params).flatMap((p) => [p, `params.${p}`]);
  // A tensor that fixes B, Tq or Tk also fixes the shapes the masks must have.
  const masks = ['validLens', 'attnMask'];
  switch (name) {
    case 'q':
      return ['q', 'k', 'v', ...paramNames, ...masks];
    case 'k':
      return ['k', 'v', ...paramNames, ...masks];
    case 'v':
      return ['v', 'gradOutput'];
    case 'x':
      return ['x', ...masks];
    case 'weights':
      return ['weights', 'gradWeights', ...masks];
    default:
      return paramNames.includes(name) ? paramNames : [name];
  }
}

/** Where each tensor argument (or parameter) lives in the call, to replace it. */
function tensorSlots(call, s) {
  const slots = call.names.map((name) => ({ name, original: call.ref.tensors[name], set: (v) => (call.args[name] = v) }));
  for (const [p, original] of Object.entries(call.ref.params)) {
    if (s.op === 'attention') slots.push({ name: `params.${p}`, original, set: (v) => (call.options.params[p] = v) });
    if (s.op === 'additiveAttention') slots.push({ name: p, original, set: (v) => (call.options[p] = v) });
  }
  return slots;
}

/** A fresh { data: Float32Array, shape } copy of a tensor, to break. */
const plain = (t) => ({ data: Float32Array.from(t.data), shape: [...t.shape] });

/** Axes whose size is checked against another tensor (free axes such as Tq or dv are not faults). */
function checkedAxes(name, s) {
  const r = s.rank ?? 4;
  if (s.family === 'softmax') return name === 'gradWeights' ? [...Array(r).keys()] : [];
  if (name === 'q') return [...(r >= 3 ? [0] : []), r - 1];
  if (name === 'k') return [...(r >= 3 ? [0] : []), r - 2, r - 1]; // d: tied to q's (dot) or to the parameters
  if (name === 'v') return [...(r >= 3 ? [0] : []), ...(r === 4 ? [1] : []), r - 2];
  if (name === 'gradOutput') return [...Array(r).keys()];
  return [0]; // parameters: the first axis is always tied to q or k
}

function applyFault(call, s) {
  const { kind, pick } = s.fault;
  const slots = tensorSlots(call, s);
  const slot = pickOf(slots, pick);
  const fail = (names, known) => (call.expect = { names, ...(known ? { known } : {}) });
  const t = () => plain(slot.original);
  switch (kind) {
    case 'nan':
    case 'infinity': {
      const broken = t();
      const bad = kind === 'nan' ? NaN : pickOf([Infinity, -Infinity], pick >> 4);
      if (bad === -Infinity && slot.name === 'x') return; // a masked score: valid
      broken.data[(pick >> 5) % broken.data.length] = bad;
      slot.set(broken);
      return fail([slot.name]);
    }
    case 'length': {
      const broken = t();
      const n = broken.data.length + pickOf([-1, 1, 7], pick >> 4);
      slot.set({ data: n < 0 ? new Float32Array(1) : new Float32Array(n), shape: broken.shape });
      return fail([slot.name]);
    }
    case 'zero-dim': {
      const broken = t();
      const shape = [...broken.shape];
      shape[(pick >> 4) % shape.length] = 0;
      slot.set({ data: new Float32Array(0), shape });
      return fail(partnersOf(slot.name, call));
    }
    case 'axis': {
      const axes = checkedAxes(slot.name, s);
      if (axes.length === 0) return;
      const broken = t();
      const shape = [...broken.shape];
      shape[pickOf(axes, pick >> 4)] += 1;
      slot.set({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(0.25), shape });
      return fail(partnersOf(slot.name, call));
    }
    case 'rank': {
      const broken = t();
      const shape = pick & 16 ? [1, ...broken.shape] : broken.shape.slice(1);
      if (shape.length === 0) return;
      if (slot.name === 'x' && shape.length <= 4) return; // every rank 1..4 is a valid x
      if (slot.name === 'weights' && shape.length <= 4) {
        slot.set({ data: broken.data, shape });
        return fail(partnersOf('weights', call));
      }
      slot.set({
        data: broken.data.slice(
          0,
          shape.reduce((a, b) => a * b, 1),
        ),
        shape,
      });
      return fail(partnersOf(slot.name, call));
    }
    case 'type': {
      const n = slot.original.data.length;
      const bad = pickOf(
        [
          'abc',
          42,
          null,
          {},
          { data: 'x', shape: [1] },
          { data: new BigInt64Array(n), shape: [n] },
          { data: Array.from({ length: n }, (_, i) => (i === n - 1 ? '1' : 0)), shape: [n] },
          [[1, 2], [3]],
          [[1, 'a']],
          true,
          { data: new Float32Array(n) },
          { shape: [n] },
          { data: new Float32Array(n), shape: 'n' },
          { data: new Float32Array(n), shape: [n / 2 + 0.5, 2] },
        ],
        pick >> 4,
      );
      slot.set(bad);
      return fail(partnersOf(slot.name, call));
    }
    case 'option-value': {
      const numeric =
        s.family === 'attention'
          ? ['scale', 'maskFill', ...(s.scoring === 'dot' || s.scoring === 'scaled-dot' ? ['softcap', 'dropout', 'seed'] : [])]
          : ['maskFill'];
      if (s.op === 'additiveAttention') numeric.shift(); // additiveAttention has no scale
      const key = pickOf(numeric, pick);
      const bad = pickOf(badNumbers(key), pick >> 4);
      call.options[key] = bad;
      return fail([key]);
    }
    case 'float32-option': {
      // Finite in float64, not in float32 (issue 8, finding 4).
      const numeric =
        s.family === 'attention' && s.op !== 'additiveAttention'
          ? ['scale', 'maskFill', ...(s.scoring === 'dot' || s.scoring === 'scaled-dot' ? ['softcap'] : [])]
          : ['maskFill'];
      const key = pickOf(numeric, pick);
      call.options[key] = pickOf(key === 'scale' ? [1e39, 1e-46] : [1e39, -1e39, 3.5e38], pick >> 4);
      return fail([key], kind);
    }
    case 'flag-value': {
      if (s.family !== 'attention' || s.backward) return;
      const flags = ['returnWeights', 'trace', ...(s.op === 'scaledDotProductAttention' ? ['returnLse'] : [])];
      const key = pickOf(flags, pick);
      call.options[key] = pickOf(['yes', 1, 0, null, {}], pick >> 4);
      return fail([key]);
    }
    case 'unknown-option': {
      const key = pickOf(['scael', 'casual', 'mask', 'boolMask', 'validLen', 'Scale', 'weights', 'heads'], pick);
      call.options[key] = pickOf([1, true, 'x', [1]], pick >> 4);
      return fail([key]);
    }
    case 'options-type': {
      call.options = pickOf(['abc', 5, [], null, true, () => {}], pick);
      return fail(['options']);
    }
    case 'validLens': {
      const B = s.B;
      call.options.validLens = pickOf(
        [
          Array(B).fill(-1),
          Array(B).fill(1.5),
          Array(B).fill(NaN),
          Array(B + 1).fill(1),
          [Array(s.Tq + 1).fill(1)],
          Array(B).fill('2'),
          { data: new Float32Array(B), shape: [B, 1, 1] },
          Array(B).fill(Infinity),
          'abc',
        ],
        pick,
      );
      return fail(['validLens']);
    }
    case 'attnMask-shape': {
      const shape = SCORE_AXES[s.rank].map((axis) => call.shapes.scores[axis]);
      const a = pick % shape.length;
      shape[a] += pickOf([1, 2], pick >> 4);
      if (pick & 64) shape.unshift(2, 1, 1, 1); // rank 5+
      call.options.attnMask = { data: new Uint8Array(shape.reduce((x, y) => x * y, 1)).fill(1), shape };
      return fail(['attnMask']);
    }
    case 'attnMask-value': {
      const shape = [s.Tq, s.Tk];
      const data = new Float32Array(s.Tq * s.Tk);
      data[pick % data.length] = pickOf([NaN, Infinity], pick >> 8);
      call.options.attnMask = { data, shape };
      return fail(['attnMask']);
    }
    case 'attnMask-type': {
      const n = s.Tq * s.Tk;
      call.options.attnMask = pickOf(
        [
          { data: new Int16Array(n), shape: [s.Tq, s.Tk] },
          { data: Array(n).fill(1), shape: [s.Tq, s.Tk] },
          { data: new Uint8Array(n) },
          'abc',
          7,
          { data: 'abc', shape: [3] },
          new Uint8Array(n),
        ],
        pick,
      );
      return fail(['attnMask']);
    }
    case 'causal': {
      call.options.causal = pickOf(['left', 1, 'true', {}, 'bottom-left', 0], pick);
      return fail(['causal']);
    }
    case 'scoring': {
      if (s.op !== 'attention') return;
      call.options.scoring = pickOf(['cosine', 5, 'Dot', '', 'scaled_dot'], pick);
      return fail(['scoring']);
    }
    case 'prototype-name': {
      // Issue 8, finding 5: a name from Object.prototype as a scoring.
      if (s.op !== 'attention') return;
      call.options.scoring = pickOf(['toString', 'constructor', '__proto__', 'hasOwnProperty'], pick);
      return fail(['scoring'], kind);
    }
    case 'params-missing': {
      const names = Object.keys(call.ref.params);
      if (names.length === 0) return;
      const p = pickOf(names, pick);
      if (s.op === 'attention') delete call.options.params[p];
      else delete call.options[p];
      return fail([p, `params.${p}`]);
    }
    case 'params-extra': {
      if (s.op !== 'attention') return;
      const extra = pickOf(['w', 'wq', 'wk', 'wv', 'wo'], pick);
      if (extra in call.ref.params) return;
      call.options.params = { ...(call.options.params ?? {}), [extra]: { data: new Float32Array(1), shape: [1] } };
      return fail([`params.${extra}`, extra]);
    }
    case 'dot-only-option': {
      if (s.scoring === 'dot' || s.scoring === 'scaled-dot' || s.op !== 'attention') return;
      const key = pickOf(['softcap', 'dropout'], pick);
      call.options[key] = 0.5;
      return fail([key]);
    }
    case 'backward-forward-option': {
      // Issue 8, finding 6: a backward accepts (and ignores) the forward's result flags.
      if (s.family !== 'attention' || !s.backward) return;
      const key = pickOf(['trace', 'returnWeights', ...(s.op === 'scaledDotProductAttention' ? ['returnLse'] : [])], pick);
      call.options[key] = pickOf([true, 'yes'], pick >> 4);
      return fail([key], kind);
    }
    case 'inherited-option': {
      // Issue 8, finding 5: an option on the options' prototype is not the caller's option.
      const proto = { causal: true, maskFill: 1e3, scale: 1e-3, validLens: Array(s.B).fill(0), window: [0, 0], alibi: [1e3] };
      const key = pickOf(Object.keys(proto), pick);
      call.options = Object.assign(Object.create({ [key]: proto[key] }), call.options);
      call.expect = { sameAsValid: true, known: kind };
      return;
    }
    case 'polluted-prototype': {
      // Issue 8, finding 5: Object.prototype polluted by the host page during the call.
      const pollution = { boolMask: 1, causal: true, floatMask: 1, scale: 1e-3, maskFill: 1e3, trace: true, window: [0, 0], alibi: true };
      const key = pickOf(Object.keys(pollution), pick);
      call.pollute = { key, value: pollution[key] };
      call.expect = { sameAsValid: true, known: kind };
      return;
    }
    case 'changing-getter': {
      // Issue 8, finding 2: data that is short when first read and long when read again (one
      // element short, so that a one-element tensor is short too).
      const original = slot.original;
      const short = original.data.slice(0, original.data.length - 1);
      let reads = 0;
      slot.set({
        get data() {
          return reads++ === 0 ? short : original.data;
        },
        shape: [...original.shape],
      });
      return fail([slot.name], kind);
    }
    default:
      throw new Error(`unknown fault ${kind}`);
  }
}

/** Values of a numeric option that are wrong: non-numbers, NaN, infinities and out-of-range numbers. */
function badNumbers(key) {
  const common = ['1', true, null, {}, [1], NaN, Infinity, -Infinity, 1n];
  switch (key) {
    case 'scale':
      return [...common, 0, -0, -1, -1e-3];
    case 'softcap':
      return [...common, -1, -1e-3];
    case 'dropout':
      return [...common, -0.1, 1, 1.5];
    case 'seed':
      return [...common, -1, 1.5, 2 ** 53];
    default:
      return common; // maskFill: any finite number is valid
  }
}
