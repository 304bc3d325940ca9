// Attention with a scoring function a(q, k) (docs/semantics.md "Scoring functions"):
//   q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv) -> out (B, H, Tq, dv), in q's rank.
// 'dot' and 'scaled-dot' run through sdpa-call.js (they take softcap and dropout); 'general',
// 'additive' and 'concat' through the core's scoring functions, with parameter gradients.
import { MASK_OPTIONS, resolveMask } from '../boundary/masks.js';
import { scratchFloats, withArena } from '../boundary/memory.js';
import { callEntry } from '../boundary/packed.js';
import {
  RESULT_OPTIONS,
  attentionInputs,
  gradOutputTensor,
  gradientBlocks,
  readInputGradients,
  readResult,
  resultBlocks,
  sdpaBackward,
  sdpaForward,
  sdpaSetup,
} from './sdpa-call.js';
import { attentionDims, scoresOf } from '../boundary/shapes.js';
import { shapeSize, tensor } from '../boundary/tensor.js';
import { booleanOption, expectAxes, expectKnownOptions, inputTensor, scaleOption } from '../boundary/validate.js';

const SCORING_CODE = Object.freeze({ __proto__: null, dot: 0, 'scaled-dot': 1, general: 2, additive: 3, concat: 4 });

// The parameters each scoring reads: [name, shape in letters, expected axes given dims and the
// parameters converted so far (additive's h is read from wq)].
const PARAMETERS = {
  __proto__: null,
  dot: [],
  'scaled-dot': [],
  general: [
    [
      'w',
      '(dq, dk)',
      (d) => [
        ['dq', d.dq],
        ['dk', d.dk],
      ],
    ],
  ],
  additive: [
    ['wq', '(dq, h)', (d) => [['dq', d.dq], ['h']]],
    [
      'wk',
      '(dk, h)',
      (d, p) => [
        ['dk', d.dk],
        ['h', p.wq.shape[1]],
      ],
    ],
    ['wv', '(h)', (d, p) => [['h', p.wq.shape[1]]]],
  ],
  concat: [['w', '(dq + dk)', (d) => [['dq + dk', d.dq + d.dk]]]],
};

// The fields of ScoringArgs the scratch size depends on.
const SCORING_SIZES = ['B', 'H', 'Hkv', 'Tq', 'Tk', 'dq', 'dk', 'dv', 'hidden', 'scoring'];

// The backward lists leave out the options that only choose the forward's outputs.
const ADDITIVE_BACKWARD_OPTIONS = [...MASK_OPTIONS, 'wq', 'wk', 'wv'];
const ADDITIVE_OPTIONS = [...ADDITIVE_BACKWARD_OPTIONS, ...RESULT_OPTIONS];
const ATTENTION_BACKWARD_OPTIONS = [...MASK_OPTIONS, 'scoring', 'params', 'scale', 'softcap', 'dropout', 'seed'];
const ATTENTION_OPTIONS = [...ATTENTION_BACKWARD_OPTIONS, ...RESULT_OPTIONS];

/** Checks and converts the parameters `scoring` reads; `prefix` names them in messages ('params.'). */
function scoringParameters(fn, scoring, given, prefix, dims) {
  const wanted = PARAMETERS[scoring];
  const own = Object.create(null); // each own parameter read once; nothing inherited
  for (const key of Object.keys(given)) {
    const value = given[key];
    if (value !== undefined && !wanted.some(([name]) => name === key)) {
      throw new TypeError(`${fn}: ${prefix}${key} is not used by scoring '${scoring}' (it reads: ${wanted.map(([n]) => n).join(', ') || 'nothing'})`);
    }
    own[key] = value;
  }
  const params = {};
  for (const [name, letters, axesOf] of wanted) {
    if (own[name] === undefined || own[name] === null) {
      throw new TypeError(`${fn}: scoring '${scoring}' needs ${prefix}${name} ${letters}`);
    }
    params[name] = inputTensor(fn, `${prefix}${name}`, own[name]);
    expectAxes(fn, `${prefix}${name}`, params[name], axesOf(dims, params));
  }
  return params;
}

/** Everything both directions of a non-dot scoring need. */
function scoringSetup(module, fn, inputs, scoring, givenParams, prefix, options) {
  const dims = attentionDims(fn, inputs.q, inputs.k, inputs.v, { sameWidth: false });
  const params = scoringParameters(fn, scoring, givenParams, prefix, dims);
  const scale = scaleOption(fn, options, 1);
  const mask = resolveMask(fn, options, scoresOf(dims));
  const { B, H, Hkv, Tq, Tk, dq, dk, dv } = dims;
  const hidden = params.wq ? params.wq.shape[1] : 0;
  const args = { B, H, Hkv, Tq, Tk, dq, dk, dv, hidden, scoring: SCORING_CODE[scoring], scale, mask: mask.args };
  const scratch = scratchFloats(module, 'scoringScratchFloats', args, SCORING_SIZES);
  return { fn, inputs, dims, params, args, maskBuffers: mask.buffers, scratch };
}

function parameterBlocks(params) {
  return { ...params };
}

function scoringForward(module, setup, { returnWeights, trace }) {
  const { fn, inputs, dims, params, args, maskBuffers, scratch } = setup;
  const wanted = { returnWeights, trace, softcapped: false, returnLse: false };
  const blocks = {
    q: inputs.q,
    k: inputs.k,
    v: inputs.v,
    ...parameterBlocks(params),
    ...maskBuffers,
    ...resultBlocks(dims, wanted),
    scratch,
  };
  return withArena(module, fn, blocks, (buffers, read) => {
    callEntry(module, 'scoringForward', args, buffers);
    return readResult(read, dims, wanted);
  });
}

function scoringBackward(module, setup, gradOutput) {
  const { fn, inputs, dims, params, args, maskBuffers, scratch } = setup;
  const dout = gradOutputTensor(fn, gradOutput, dims);
  const gradBlocks = Object.fromEntries(Object.entries(params).map(([name, t]) => [`d${name}`, shapeSize(t.shape)]));
  const blocks = { ...gradientBlocks(inputs, dout), ...parameterBlocks(params), ...maskBuffers, ...gradBlocks, scratch };
  return withArena(module, fn, blocks, (buffers, read) => {
    callEntry(module, 'scoringBackward', args, buffers);
    const grads = readInputGradients(read, inputs);
    for (const [name, t] of Object.entries(params)) grads[`d${name}`] = tensor(read(`d${name}`), t.shape);
    return grads;
  });
}

function resultFlags(fn, options) {
  return { returnWeights: booleanOption(fn, options, 'returnWeights'), trace: booleanOption(fn, options, 'trace') };
}

// ---- additiveAttention: w_v . tanh(q Wq + k Wk) ----

/** -> { setup, opts }: the options checked against `known` (the forward's or the backward's list). */
function additiveSetup(module, fn, q, k, v, options, known) {
  if (options === undefined || options === null) {
    throw new TypeError(`${fn}: options { wq (dq, h), wk (dk, h), wv (h) } are required`);
  }
  const opts = expectKnownOptions(fn, options, known);
  const { wq, wk, wv } = opts;
  return { setup: scoringSetup(module, fn, attentionInputs(fn, q, k, v), 'additive', { wq, wk, wv }, '', opts), opts };
}

export function additiveAttention(module, q, k, v, options) {
  const fn = 'additiveAttention';
  const { setup, opts } = additiveSetup(module, fn, q, k, v, options, ADDITIVE_OPTIONS);
  return scoringForward(module, setup, resultFlags(fn, opts));
}

export function additiveAttentionBackward(module, q, k, v, gradOutput, options) {
  const fn = 'additiveAttentionBackward';
  return scoringBackward(module, additiveSetup(module, fn, q, k, v, options, ADDITIVE_BACKWARD_OPTIONS).setup, gradOutput);
}

// ---- attention: any scoring ----

/** -> { viaSdpa, setup, opts }: the dot-product scorings go through sdpa, the others through scoring. */
function attentionSetup(module, fn, q, k, v, options, known) {
  const opts = expectKnownOptions(fn, options, known);
  const scoring = opts.scoring ?? 'scaled-dot';
  if (typeof scoring !== 'string' || !Object.hasOwn(SCORING_CODE, scoring)) {
    throw new TypeError(
      `${fn}: scoring must be one of ${Object.keys(SCORING_CODE)
        .map((s) => `'${s}'`)
        .join(', ')}, got ${String(scoring)}`,
    );
  }
  const params = opts.params ?? {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new TypeError(`${fn}: params must be an object { w, wq, wk, wv }, got ${typeof params}`);
  }
  const inputs = attentionInputs(fn, q, k, v);
  if (scoring === 'dot' || scoring === 'scaled-dot') {
    scoringParameters(fn, scoring, params, 'params.', null); // rejects parameters these scorings do not read
    const defaultScale = scoring === 'dot' ? () => 1 : (d) => 1 / Math.sqrt(d);
    return { viaSdpa: true, setup: sdpaSetup(module, fn, inputs, opts, defaultScale), opts };
  }
  for (const key of ['softcap', 'dropout']) {
    if (opts[key] !== undefined && opts[key] !== 0) {
      throw new TypeError(`${fn}: ${key} applies to the dot-product scorings ('dot', 'scaled-dot') only, not to '${scoring}'`);
    }
  }
  return { viaSdpa: false, setup: scoringSetup(module, fn, inputs, scoring, params, 'params.', opts), opts };
}

/** attention's arguments checked: -> { viaSdpa, setup, flags } (threads/parallel.js runs them elsewhere). */
export function attentionForwardCall(module, q, k, v, options = {}) {
  const fn = 'attention';
  const { viaSdpa, setup, opts } = attentionSetup(module, fn, q, k, v, options, ATTENTION_OPTIONS);
  const flags = resultFlags(fn, opts);
  return { viaSdpa, setup, flags: viaSdpa ? { ...flags, returnLse: false } : flags };
}

/** attentionBackward's arguments but gradOutput checked: -> { viaSdpa, setup }. */
export function attentionBackwardCall(module, q, k, v, options = {}) {
  return attentionSetup(module, 'attentionBackward', q, k, v, options, ATTENTION_BACKWARD_OPTIONS);
}

export function attention(module, q, k, v, options) {
  const { viaSdpa, setup, flags } = attentionForwardCall(module, q, k, v, options);
  return viaSdpa ? sdpaForward(module, setup, flags) : scoringForward(module, setup, flags);
}

export function attentionBackward(module, q, k, v, gradOutput, options) {
  const { viaSdpa, setup } = attentionBackwardCall(module, q, k, v, options);
  return viaSdpa ? sdpaBackward(module, setup, gradOutput) : scoringBackward(module, setup, gradOutput);
}
