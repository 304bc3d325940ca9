// One scaled dot-product attention call checked and laid out (sdpa*Call, *Blocks, read*), run
// here in one arena (sdpaForward, sdpaBackward) or by the pool (threads/) on workers:
//   q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv) -> out (B, H, Tq, dv), in q's rank.
// The (Tq, Tk) matrices are only allocated when returnWeights or trace ask for them.
import { MASK_OPTIONS, resolveMask } from '../boundary/masks.js';
import { scratchFloats, withArena } from '../boundary/memory.js';
import { callEntry } from '../boundary/packed.js';
import { attentionDims, inQueryRank, rowsInQueryRank, scoresOf } from '../boundary/shapes.js';
import { fieldOf, formatShape, shapeSize, tensor } from '../boundary/tensor.js';
import { booleanOption, dotProductOptions, expectKnownOptions, expectSameShape, inputTensor, outOption } from '../boundary/validate.js';

export const RESULT_OPTIONS = ['returnWeights', 'trace'];
// The backward takes the forward's options but those that only choose the forward's outputs.
const SDPA_BACKWARD_OPTIONS = [...MASK_OPTIONS, 'scale', 'softcap', 'dropout', 'seed', 'saved'];
const SDPA_OPTIONS = [...MASK_OPTIONS, 'scale', 'softcap', 'dropout', 'seed', ...RESULT_OPTIONS, 'returnLse', 'out'];
/** The fields of SdpaArgs the scratch size depends on. */
export const SDPA_SIZES = ['B', 'H', 'Hkv', 'Tq', 'Tk', 'd', 'dv'];

/**
 * The three attention inputs, converted and checked for finite values (scanInArena: checked by
 * the arena they are copied into, validate.js).
 */
export function attentionInputs(fn, q, k, v, scanInArena = false) {
  const how = { scanInArena };
  return { q: inputTensor(fn, 'q', q, how), k: inputTensor(fn, 'k', k, how), v: inputTensor(fn, 'v', v, how) };
}

/**
 * Everything both directions need: tensors, dims and the binding's SdpaArgs.
 * defaultScale(d): the scale when options.scale is absent (1/sqrt(d), or 1 for 'dot' scoring).
 */
export function sdpaSetup(module, fn, inputs, options, defaultScale) {
  const dims = attentionDims(fn, inputs.q, inputs.k, inputs.v, { sameWidth: true });
  const numbers = dotProductOptions(fn, options, defaultScale(dims.dq));
  const mask = resolveMask(fn, options, scoresOf(dims));
  const { B, H, Hkv, Tq, Tk, dq: d, dv } = dims;
  const args = { B, H, Hkv, Tq, Tk, d, dv, ...numbers, mask: mask.args };
  const scratch = scratchFloats(module, 'sdpaScratchFloats', args, SDPA_SIZES);
  return { fn, inputs, dims, args, maskBuffers: mask.buffers, scratch };
}

/**
 * The output blocks of a forward pass (floats to reserve; null when not asked for):
 * out (B, H, Tq, dv), lse (B, H, Tq), and weights / scores / softcapped / masked (B, H, Tq, Tk).
 */
export function resultBlocks(dims, { returnWeights, trace, softcapped, returnLse }) {
  const scores = dims.B * dims.H * dims.Tq * dims.Tk;
  return {
    out: dims.B * dims.H * dims.Tq * dims.dv,
    lse: returnLse ? dims.B * dims.H * dims.Tq : null,
    weights: returnWeights ? scores : null,
    scores: trace ? scores : null,
    softcapped: trace && softcapped ? scores : null,
    masked: trace ? scores : null,
  };
}

/** The AttentionResult of those blocks, every tensor in the rank of q; the output's data is `out` when given. */
export function readResult(read, dims, { returnWeights, trace, softcapped, returnLse, out }) {
  const scoresShape = inQueryRank(dims, dims.Tk);
  const result = { output: tensor(read('out', out), inQueryRank(dims, dims.dv)) };
  if (returnWeights) result.weights = tensor(read('weights'), scoresShape);
  if (trace) {
    result.trace = { scores: tensor(read('scores'), scoresShape), masked: tensor(read('masked'), scoresShape) };
    if (softcapped) result.trace.softcapped = tensor(read('softcapped'), scoresShape);
  }
  if (returnLse) result.lse = tensor(read('lse'), rowsInQueryRank(dims));
  return result;
}

/** What a forward pass writes: the flags plus softcapped (a trace tensor only when softcap > 0). */
export function forwardOutputs(setup, { returnWeights, trace, returnLse, out }) {
  return { returnWeights, trace, returnLse, out, softcapped: setup.args.softcap > 0 };
}

/** Every block of a whole forward call: inputs, masks, outputs (resultBlocks) and scratch. */
export function sdpaForwardBlocks(setup, wanted) {
  const { inputs, maskBuffers, scratch, dims } = setup;
  const blocks = resultBlocks(dims, wanted);
  blocks.q = inputs.q;
  blocks.k = inputs.k;
  blocks.v = inputs.v;
  Object.assign(blocks, maskBuffers);
  blocks.scratch = scratch;
  return blocks;
}

/** -> { output, weights?, trace?, lse? }; trace.softcapped only when softcap > 0. */
export function sdpaForward(module, setup, flags) {
  const { fn, args, dims } = setup;
  const wanted = forwardOutputs(setup, flags);
  return withArena(module, fn, sdpaForwardBlocks(setup, wanted), (buffers, read) => {
    callEntry(module, 'sdpaForward', args, buffers);
    return readResult(read, dims, wanted);
  });
}

/** gradOutput checked against the output (B, H, Tq, dv) in q's rank. */
export function gradOutputTensor(fn, gradOutput, dims, scanInArena = false) {
  const dout = inputTensor(fn, 'gradOutput', gradOutput, { scanInArena });
  expectSameShape(fn, 'gradOutput', dout, inQueryRank(dims, dims.dv), 'the output (B, H, Tq, dv)');
  return dout;
}

/** The blocks every attention backward shares: q, k, v, dout in; dq, dk, dv (shapes of q, k, v) out. */
export function gradientBlocks(inputs, dout) {
  const { q, k, v } = inputs;
  return { q, k, v, dout, dq: shapeSize(q.shape), dk: shapeSize(k.shape), dv: shapeSize(v.shape) };
}

export function readInputGradients(read, inputs) {
  return {
    dq: tensor(read('dq'), inputs.q.shape),
    dk: tensor(read('dk'), inputs.k.shape),
    dv: tensor(read('dv'), inputs.v.shape),
  };
}

/** Every block of a whole backward call; dout already checked (gradOutputTensor). */
export function sdpaBackwardBlocks(setup, dout) {
  const blocks = { ...gradientBlocks(setup.inputs, dout), ...setup.maskBuffers, scratch: setup.scratch };
  if (setup.saved) {
    blocks.out = setup.saved.output;
    blocks.lse = setup.saved.lse;
  }
  return blocks;
}

/**
 * options.saved: the forward's result on the same inputs and options, with output (B, H, Tq, dv)
 * and lse (B, H, Tq) in q's rank (returnLse: true); the backward then skips recomputing them.
 * -> { output, lse } tensors, or null when not given.
 */
function savedForward(fn, saved, dims, scanInArena) {
  if (saved === undefined) return null;
  const given = typeof saved === 'object' ? { output: fieldOf(saved, 'output'), lse: fieldOf(saved, 'lse') } : {}; // each read once, never inherited
  if (given.output === undefined || given.lse === undefined) {
    throw new TypeError(`${fn}: saved must be the forward's result with output and lse (returnLse: true)`);
  }
  const output = inputTensor(fn, 'saved.output', given.output, { scanInArena });
  expectSameShape(fn, 'saved.output', output, inQueryRank(dims, dims.dv), 'the output (B, H, Tq, dv)');
  const lse = inputTensor(fn, 'saved.lse', given.lse, { allowNegativeInfinity: true });
  expectSameShape(fn, 'saved.lse', lse, rowsInQueryRank(dims), 'the log-sum-exp (B, H, Tq)');
  return { output, lse };
}

/** gradOutput (B, H, Tq, dv) in q's rank -> { dq, dk, dv } in the shapes of q, k, v. */
export function sdpaBackward(module, setup, gradOutput) {
  const { fn, inputs, dims, args } = setup;
  const dout = gradOutputTensor(fn, gradOutput, dims, setup.scanInArena);
  return withArena(module, fn, sdpaBackwardBlocks(setup, dout), (buffers, read) => {
    callEntry(module, 'sdpaBackward', args, buffers);
    return readInputGradients(read, inputs);
  });
}

const inverseSqrt = (d) => 1 / Math.sqrt(d);

/**
 * scaledDotProductAttention's arguments checked: -> { setup, flags } (threads/parallel.js runs them
 * elsewhere). scanInArena: q, k, v are checked finite when sdpaForward copies them in.
 */
export function sdpaForwardCall(module, q, k, v, options, scanInArena = false) {
  const fn = 'scaledDotProductAttention';
  const opts = expectKnownOptions(fn, options, SDPA_OPTIONS);
  const setup = sdpaSetup(module, fn, attentionInputs(fn, q, k, v, scanInArena), opts, inverseSqrt);
  const { dims } = setup;
  const outShape = inQueryRank(dims, dims.dv);
  const flags = {
    returnWeights: booleanOption(fn, opts, 'returnWeights'),
    trace: booleanOption(fn, opts, 'trace'),
    returnLse: booleanOption(fn, opts, 'returnLse'),
    out: outOption(fn, opts, shapeSize(outShape), `the output (B, H, Tq, dv) ${formatShape(outShape)}`),
  };
  return { setup, flags };
}

/**
 * scaledDotProductAttentionBackward's arguments but gradOutput checked: -> setup (with saved).
 * scanInArena: as sdpaForwardCall's; saved.output and gradOutput too.
 */
export function sdpaBackwardCall(module, q, k, v, options, scanInArena = false) {
  const fn = 'scaledDotProductAttentionBackward';
  const opts = expectKnownOptions(fn, options, SDPA_BACKWARD_OPTIONS);
  const setup = sdpaSetup(module, fn, attentionInputs(fn, q, k, v, scanInArena), opts, inverseSqrt);
  setup.saved = savedForward(fn, opts.saved, setup.dims, scanInArena);
  setup.scanInArena = scanInArena;
  return setup;
}
