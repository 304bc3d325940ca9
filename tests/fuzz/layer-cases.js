// Random layer sessions for the fuzz suite (not a test file): a selfAttention or multiHeadAttention
// layer built from random sizes (GQA ratios included), given or seeded weights, causal corners and
// scale, then forward (validLens, trace) -> backward -> step -> forward, or setParameters, each step
// checked against layerReference (tests/reference/index.js); at most one fault, whose error must name
// the argument it broke.
import fc from 'fast-check';
import { expect } from 'vitest';
import { layerReference } from '../reference/index.js';
import { expectNamedError, expectNear, guardedCall, toleranceOf } from './contract.js';
import { STYLES, makeTensor } from './values.js';

const size = fc.constantFrom(1, 2, 3, 4, 5, 7, 8, 9);
const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

export const LAYER_FAULTS = [
  'unknown-option',
  'size-option',
  'heads',
  'seed-option',
  'causal',
  'scale',
  'weight-shape',
  'weight-value',
  'x-width',
  'x-value',
  'x-rank',
  'forward-option',
  'validLens',
  'gradOutput',
  'learningRate',
  'setParameters',
];

export const layerSpec = fc.record({
  kind: fc.constantFrom('selfAttention', 'multiHeadAttention'),
  dIn: size,
  dQ: size,
  dOut: size,
  kvHeads: fc.constantFrom(1, 2, 3),
  group: fc.constantFrom(1, 2, 4),
  dHead: fc.constantFrom(1, 2, 3, 4, 5),
  giveWeights: fc.boolean(),
  weightSeed: seed,
  initSeed: fc.option(fc.nat(1000)),
  causal: fc.constantFrom(undefined, false, true, 'top-left', 'bottom-right'),
  scale: fc.option(fc.constantFrom(0.1, 0.5, 1.5)),
  rank: fc.constantFrom(2, 3),
  B: fc.constantFrom(1, 2, 3),
  T: fc.constantFrom(1, 2, 3, 4, 5, 8, 9, 17),
  x: fc.record({ style: fc.constantFrom(...STYLES), seed }),
  validLens: fc.option(fc.record({ perRow: fc.boolean(), seed })),
  trace: fc.constantFrom(undefined, true, false),
  learningRate: fc.constantFrom(0, 0.1, 1, -0.5),
  setParameters: fc.boolean(),
  fault: fc.option(fc.record({ kind: fc.constantFrom(...LAYER_FAULTS), pick: fc.nat(1 << 20) }), { freq: 3 }),
});

/** The layer's sizes in the reference's terms. */
function dimsOf(s) {
  if (s.kind === 'selfAttention') return { dIn: s.dIn, dQ: s.dQ, dV: s.dOut, heads: 1, kvHeads: 1, dOut: 0 };
  const heads = s.kvHeads * s.group;
  const dModel = heads * s.dHead;
  return { dIn: dModel, dQ: s.dHead, dV: s.dHead, heads, kvHeads: s.kvHeads, dOut: dModel };
}

function weightShapes(d) {
  const shapes = { wq: [d.dIn, d.heads * d.dQ], wk: [d.dIn, d.kvHeads * d.dQ], wv: [d.dIn, d.kvHeads * d.dV] };
  if (d.dOut > 0) shapes.wo = [d.heads * d.dV, d.dOut];
  return shapes;
}

const pickOf = (list, pick) => list[pick % list.length];

/** The constructor's options, and which fault (if any) they carry: -> { options, names }. */
function layerOptions(s, d, fault) {
  const options =
    s.kind === 'selfAttention'
      ? { dIn: s.dIn, dQ: s.dQ, dOut: s.dOut, ...(s.scale !== null ? { scale: s.scale } : {}) }
      : { dModel: d.dIn, heads: d.heads, kvHeads: d.kvHeads };
  if (s.initSeed !== null) options.seed = s.initSeed;
  if (s.causal !== undefined) options.causal = s.causal;
  if (s.giveWeights) {
    for (const [name, shape] of Object.entries(weightShapes(d))) options[name] = makeTensor(shape, 'unit', s.weightSeed + name.length);
  }
  const { kind, pick } = fault ?? {};
  const sizeKeys = s.kind === 'selfAttention' ? ['dIn', 'dQ', 'dOut'] : ['dModel', 'heads', 'kvHeads'];
  switch (kind) {
    case 'unknown-option': {
      const key = pickOf(['dModle', 'head', 'causual', 'dropout', 'wx', 'validLens'], pick);
      options[key] = 1;
      return { options, names: [key] };
    }
    case 'size-option': {
      const key = pickOf(sizeKeys, pick);
      options[key] = pickOf([0, -1, 1.5, NaN, Infinity, '4', null, 2 ** 53], pick >> 4);
      return { options, names: [key, ...(s.giveWeights ? ['wq', 'wk', 'wv', 'wo'] : [])] };
    }
    case 'heads': {
      if (s.kind !== 'multiHeadAttention') return { options };
      // heads that do not divide dModel, or kvHeads that do not divide heads
      if (pick & 1) options.heads = d.dIn + 1;
      else options.kvHeads = d.heads + 1;
      return { options, names: ['heads', 'kvHeads', 'dModel'] };
    }
    case 'seed-option':
      options.seed = pickOf([-1, 1.5, NaN, '1', 2 ** 53], pick);
      return { options, names: ['seed'] };
    case 'causal':
      options.causal = pickOf(['left', 1, 'yes', {}], pick);
      return { options, names: ['causal'] };
    case 'scale':
      if (s.kind !== 'selfAttention') return { options };
      options.scale = pickOf([0, -1, NaN, Infinity, '1', null], pick);
      return { options, names: ['scale'] };
    case 'weight-shape':
    case 'weight-value': {
      const shapes = weightShapes(d);
      const name = pickOf(Object.keys(shapes), pick);
      const [rows, cols] = shapes[name];
      const t = makeTensor(kind === 'weight-shape' ? [rows, cols + 1] : [rows, cols], 'unit', pick); // one column too many
      if (kind === 'weight-value') t.data[(pick >> 4) % t.data.length] = pickOf([NaN, Infinity, -Infinity], pick >> 8);
      options[name] = t;
      // A self-attention's sizes come from its weights: a wider one may disagree with another weight instead.
      return { options, names: kind === 'weight-shape' ? ['wq', 'wk', 'wv', 'wo', 'dIn', 'dQ', 'dOut'] : [name] };
    }
    default:
      return { options };
  }
}

/**
 * Runs a layer session for spec `s` on attn/module, checking each step against the reference.
 * Returns 'error' or 'result' (as runCase does).
 */
export function runLayerSession(attn, module, s) {
  const d = dimsOf(s);
  const fault = s.fault;
  const { options, names } = layerOptions(s, d, fault);
  const created = guardedCall(module, { options }, () => attn[s.kind](options));
  if (names) {
    expectNamedError(created, names, s.kind);
    return 'error';
  }
  expect(created.error, `${s.kind}: valid options threw ${created.error?.message}`).toBeUndefined();
  const layer = created.result;
  const weights = Object.fromEntries(Object.entries(layer.parameters()).map(([n, t]) => [n, t.data]));
  const B = s.rank === 3 ? s.B : 1;
  const x = makeTensor(s.rank === 3 ? [B, s.T, d.dIn] : [s.T, d.dIn], s.x.style, s.x.seed);
  const lensRef = s.validLens
    ? makeTensor([B * (s.validLens.perRow ? s.T : 1)], 'unit', s.validLens.seed).data.map((u) => Math.floor(((u + 2) / 4) * (s.T + 2)))
    : undefined;
  const forwardOptions = {};
  if (lensRef) forwardOptions.validLens = s.validLens.perRow ? { data: lensRef, shape: [B, s.T] } : Array.from(lensRef);
  if (s.trace !== undefined) forwardOptions.trace = s.trace;
  const outWidth = d.dOut > 0 ? d.dOut : d.heads * d.dV;
  const outShape = s.rank === 3 ? [B, s.T, outWidth] : [s.T, outWidth];
  const g = makeTensor(outShape, 'unit', s.x.seed + 1);

  const step = (what, inputs, call, faultNames) => {
    const outcome = guardedCall(module, inputs, call);
    if (faultNames) {
      expectNamedError(outcome, faultNames, `${s.kind}.${what}`);
      return null;
    }
    expect(outcome.error, `${s.kind}.${what} threw ${outcome.error?.message}`).toBeUndefined();
    return outcome.result;
  };
  // Faults of the calls after construction: the argument, and the names its error must carry.
  const k = fault?.kind;
  const pick = fault?.pick ?? 0;
  const badX = {
    'x-width': () => [makeTensor(s.rank === 3 ? [B, s.T, d.dIn + 1] : [s.T, d.dIn + 1], 'unit', 1), ['x']],
    'x-value': () => {
      const t = makeTensor(x.shape, 'unit', 1);
      t.data[pick % t.data.length] = pickOf([NaN, Infinity, -Infinity], pick >> 8);
      return [t, ['x']];
    },
    'x-rank': () => [pickOf([makeTensor([d.dIn], 'unit', 1), makeTensor([1, 1, s.T, d.dIn], 'unit', 1), 'abc', null], pick), ['x']],
  }[k]?.();
  if (badX) return step('forward', { x: badX[0] }, () => layer.forward(badX[0], forwardOptions), badX[1]) ?? 'error';
  if (k === 'forward-option') {
    const bad = pickOf([{ causal: true }, { trace: 'yes' }, { validLen: [1] }, 'abc', { scale: 2 }], pick);
    step(
      'forward',
      { x, bad },
      () => layer.forward(x, bad),
      [Object.keys(bad)[0] ?? 'options', 'options'].filter((n) => n !== '0'),
    );
    return 'error';
  }
  if (k === 'validLens') {
    const bad = { validLens: pickOf([Array(B).fill(-1), Array(B + 1).fill(1), [Array(s.T + 1).fill(1)], Array(B).fill(0.5), 'x'], pick) };
    step('forward', { x, bad }, () => layer.forward(x, bad), ['validLens']);
    return 'error';
  }

  const reference = layerReference(
    { B, T: s.T, ...d },
    weights,
    x.data,
    {
      scale: s.kind === 'selfAttention' && s.scale !== null ? s.scale : 1 / Math.sqrt(d.dQ),
      causal: s.causal,
      validLens: lensRef && (s.validLens.perRow ? { data: lensRef, shape: [B, s.T] } : Array.from(lensRef)),
    },
    g,
  );
  const n = 110 + s.T + d.dIn + d.dQ + d.dV + d.dOut + d.heads * d.dV;
  const tol = (extra) => toleranceOf({ n: n + extra, d: 2 * d.dQ + 2 * d.dIn, Z: reference.Z });
  const forward = step('forward', { x, forwardOptions }, () => layer.forward(x, forwardOptions));
  expect(forward.output.shape).toEqual(outShape);
  expect(forward.trace === undefined, 'trace is returned unless trace: false').toBe(s.trace === false);
  expectNear(forward.output, reference.out, reference.outAbs, tol(0), `${s.kind}.forward: output`);

  if (s.setParameters || k === 'setParameters') {
    const shapes = weightShapes(d);
    const name = pickOf(Object.keys(shapes), pick);
    const t = makeTensor(shapes[name], 'unit', pick);
    const bad =
      k === 'setParameters'
        ? pickOf([{ [name]: { data: t.data, shape: [...t.shape].reverse().map((x, a) => x + a) } }, { wx: t }, { [name]: 'abc' }], pick >> 4)
        : null;
    if (bad) {
      step('setParameters', { bad }, () => layer.setParameters(bad), Object.keys(bad));
      return 'error';
    }
    step('setParameters', { t }, () => layer.setParameters({ [name]: t }));
    expect(layer.parameters()[name].data).toEqual(t.data);
    return 'result';
  }

  if (k === 'gradOutput') {
    const bad = pickOf(
      [
        makeTensor([...outShape.slice(0, -1), outWidth + 1], 'unit', 1),
        makeTensor(outShape.slice(1), 'unit', 1),
        { data: new Float32Array(g.data.length).fill(NaN), shape: outShape },
      ],
      pick,
    );
    step('backward', { bad }, () => layer.backward(bad), ['gradOutput']);
    return 'error';
  }
  const grads = step('backward', { g }, () => layer.backward(g));
  expectNear(grads.dx, reference.dx, reference.dxAbs, tol(0), `${s.kind}.backward: dx`);
  for (const name of Object.keys(weightShapes(d))) {
    expect(grads[`d${name}`].shape).toEqual(weightShapes(d)[name]);
    expectNear(grads[`d${name}`], reference[`d${name}`], reference[`d${name}Abs`], tol(B * s.T * s.T), `${s.kind}.backward: d${name}`);
  }
  if (k === 'learningRate') {
    const bad = pickOf([NaN, Infinity, '0.1', undefined, null], pick);
    step('step', {}, () => layer.step(bad), ['learningRate']);
    return 'error';
  }
  step('step', {}, () => layer.step(s.learningRate));
  // SGD in float32: w - lr * g, each product and difference rounded once (2 ulps of |w| + |lr g|).
  const after = layer.parameters();
  for (const [name, w] of Object.entries(weights)) {
    const gw = grads[`d${name}`].data;
    const expected = Float64Array.from(w, (x, i) => x - s.learningRate * gw[i]);
    const abs = Float64Array.from(w, (x, i) => Math.abs(x) + Math.abs(s.learningRate * gw[i]));
    expectNear(after[name], expected, abs, { factor: 2 ** -22, floor: 1e-37 }, `${s.kind}.step: ${name}`);
  }
  step('forward', { x }, () => layer.forward(x, { trace: false }));
  layer.dispose();
  return 'result';
}
