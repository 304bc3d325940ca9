// One checked scaled dot-product attention call (sdpa-call.js's setup) run on the worker pool: the plan
// (plan.js), a message per worker with the slices its sub-calls read (in one staging
// buffer, staging.js), and the answers assembled into the same result the synchronous call returns.
//   forward   q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv) -> out (B, H, Tq, dv), lse, weights, trace
//   backward  + dout (B, H, Tq, dv) -> dq (B, H, Tq, d), dk (B, Hkv, Tk, d), dv (B, Hkv, Tk, dv)
import { expectArenaFits } from '../boundary/memory.js';
import { expectNoOverflow } from '../boundary/overflow.js';
import { planSdpa, subCallSpans } from './plan.js';
import { forwardOutputs, readInputGradients, readResult, resultBlocks, sdpaBackwardBlocks, sdpaForwardBlocks } from '../ops/sdpa-call.js';
import { StagingBuffers, StagingLayout, viewOf } from './staging.js';
import { shapeSize } from '../boundary/tensor.js';
import { writeOut } from '../boundary/validate.js';

/**
 * How far a call may be cut (see plan.js): dropout whole, causal with (T, T) outputs or
 * maskFill by heads; a sliding window or ALiBi by heads too, since both are measured from the
 * diagonal i + Tk - Tq, which a block of rows with its own (Tq', Tk') would move.
 */
function splitRule(args, flags, maskBuffers) {
  const causal = args.mask.causal !== 0;
  const diagonal = args.mask.windowLeft >= 0 || args.mask.windowRight >= 0 || maskBuffers.alibiSlopes !== undefined;
  const wholeHeads = diagonal || (causal && (Boolean(flags.returnWeights || flags.trace) || args.mask.useFill));
  return { wholeCall: args.dropout > 0, wholeHeads };
}

/** The SdpaArgs of a sub-call: the call's options over the sub-call's sizes and causal code. */
function subCallArgs(args, call) {
  return { ...args, B: call.nB, H: call.nH, Hkv: call.nKv, Tq: call.rows, Tk: call.keys, mask: { ...args.mask, causal: call.causal } };
}

/** Places a sub-call's input slices in `layout`: q, k, v (and dout), validLens, the attnMask from its offset, its heads' ALiBi slopes. */
function subCallInputs(layout, setup, call, spans, dout) {
  const { inputs, dims, maskBuffers } = setup;
  const place = (array, [offset, length]) => layout.input(array, offset, length);
  const placed = {
    q: place(inputs.q.data, spans.rows(dims.dq)),
    k: place(inputs.k.data, spans.keys(dims.dq)),
    v: place(inputs.v.data, spans.keys(dims.dv)),
  };
  if (dout) placed.dout = place(dout.data, spans.rows(dims.dv));
  if (dout && setup.saved) {
    // The saved forward (sdpa-call.js): each row's output and lse do not depend on how the call is cut.
    placed.out = place(setup.saved.output.data, spans.rows(dims.dv));
    placed.lse = place(setup.saved.lse.data, spans.rows(1));
  }
  if (maskBuffers.validLens) placed.validLens = place(maskBuffers.validLens, spans.validLens);
  if (maskBuffers.boolMask) placed.boolMask = place(maskBuffers.boolMask.data, spans.attnMask);
  if (maskBuffers.floatMask) placed.floatMask = place(maskBuffers.floatMask.data, spans.attnMask);
  if (maskBuffers.alibiSlopes) placed.alibiSlopes = place(maskBuffers.alibiSlopes, [call.h, call.nH]); // its heads' slopes
  return placed;
}

/**
 * Sends every worker its sub-calls ({ args, inputs, outputs }: places in one staging buffer) and
 * calls place(entry) for each sub-call as soon as its worker answers, so the results of one worker
 * are copied out while the others still compute: entry = { call, spans, shared, result }, where
 * result maps each output to a view of the staging buffer (none for a skipped, fully masked
 * sub-call) and shared says whether another sub-call also writes its dk, dv rows.
 * wanted: the forward's outputs (forwardOutputs), {} for the backward.
 */
async function runPlan(parallel, setup, direction, wanted, dout, place) {
  const { pool, staging } = parallel;
  const { args, dims } = setup;
  const plan = planSdpa(dims, args.mask.causal, pool.size, splitRule(args, wanted, setup.maskBuffers));
  const writers = kvWriters(plan, dims);
  const workers = pool.byLoad();
  const answers = plan.map(async (calls, w) => {
    const entries = calls.map((call) => ({ call, spans: subCallSpans(dims, args.mask, call), shared: sharesKv(call, dims, writers) }));
    const running = entries.filter(({ call }) => !call.skip);
    if (running.length > 0) {
      const layout = new StagingLayout();
      const messages = running.map(({ call, spans }) => ({
        args: subCallArgs(args, call),
        inputs: subCallInputs(layout, setup, call, spans, dout),
        outputs: mapValues(direction === 'forward' ? forwardFloats(dims, call, wanted) : backwardFloats(dims, spans), (floats) => layout.output(floats)),
      }));
      const buffer = staging.take(layout.bytes);
      layout.fill(buffer);
      const answer = await pool.request(workers[w], { type: 'sdpa', fn: setup.fn, direction, calls: messages, staging: buffer }, [buffer]);
      running.forEach((entry, i) => (entry.result = mapValues(messages[i].outputs, (at) => viewOf(answer.staging, at))));
      entries.forEach(place);
      staging.give(answer.staging);
    } else {
      entries.forEach(place);
    }
  });
  await Promise.all(answers);
}

/** How many sub-calls (not skipped) write each kv head's dk, dv rows: (b * Hkv + kv head) -> count. */
function kvWriters(plan, { Hkv }) {
  const writers = new Map();
  for (const call of plan.flat()) {
    if (call.skip) continue;
    for (let b = call.b; b < call.b + call.nB; b++) {
      for (let kv = call.kv; kv < call.kv + call.nKv; kv++) writers.set(b * Hkv + kv, (writers.get(b * Hkv + kv) ?? 0) + 1);
    }
  }
  return writers;
}

/** Whether another sub-call writes dk, dv rows of this one's kv heads (then they are summed, not copied). */
function sharesKv(call, { Hkv }, writers) {
  for (let b = call.b; b < call.b + call.nB; b++) {
    for (let kv = call.kv; kv < call.kv + call.nKv; kv++) if (writers.get(b * Hkv + kv) > 1) return true;
  }
  return false;
}

const mapValues = (object, fn) => Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]));

/** Floats of each forward output of a sub-call (resultBlocks of its sizes). */
function forwardFloats(dims, call, wanted) {
  return pruned(resultBlocks({ B: call.nB, H: call.nH, Tq: call.rows, Tk: call.keys, dv: dims.dv }, wanted));
}

function backwardFloats(dims, spans) {
  return { dq: spans.rows(dims.dq)[1], dk: spans.keys(dims.dq)[1], dv: spans.keys(dims.dv)[1] };
}

const pruned = (blocks) => Object.fromEntries(Object.entries(blocks).filter(([, floats]) => floats !== null));

/** { pool, staging }: the workers and the staging buffers that travel to them and back. */
export function parallelContext(pool) {
  return { pool, staging: new StagingBuffers(2 * pool.size) };
}

/** Forward on the pool: -> the AttentionResult sdpaForward would return. */
export async function parallelSdpaForward(parallel, setup, flags) {
  const wanted = forwardOutputs(setup, flags);
  const blocks = sdpaForwardBlocks(setup, wanted);
  expectArenaFits(setup.fn, blocks); // the synchronous call's own limit and message
  const { dims } = setup;
  const whole = {};
  for (const [name, floats] of Object.entries(pruned(resultBlocks(dims, wanted)))) whole[name] = new Float32Array(floats);
  await runPlan(parallel, setup, 'forward', wanted, null, ({ call, spans, result }) => {
    if (call.skip) {
      // Every row of this block sees no key: zero output (already zero) and lse -Infinity.
      if (whole.lse) whole.lse.fill(-Infinity, ...endsOf(spans.rows(1)));
      return;
    }
    for (const name of Object.keys(result)) {
      const width = name === 'out' ? dims.dv : name === 'lse' ? 1 : dims.Tk;
      whole[name].set(result[name], spans.rows(width)[0]);
    }
  });
  return readResult(checkedRead(setup.fn, blocks, whole), dims, wanted);
}

const endsOf = ([offset, length]) => [offset, offset + length];

/** Backward on the pool: dq placed, dk and dv partials summed where sub-calls share a kv head. */
export async function parallelSdpaBackward(parallel, setup, dout) {
  const blocks = sdpaBackwardBlocks(setup, dout);
  expectArenaFits(setup.fn, blocks);
  const { inputs, dims } = setup;
  const whole = {
    dq: new Float32Array(shapeSize(inputs.q.shape)),
    dk: new Float32Array(shapeSize(inputs.k.shape)),
    dv: new Float32Array(shapeSize(inputs.v.shape)),
  };
  await runPlan(parallel, setup, 'backward', {}, dout, ({ call, spans, shared, result }) => {
    if (call.skip) return; // fully masked rows: zero gradients everywhere
    whole.dq.set(result.dq, spans.rows(dims.dq)[0]);
    // A kv head written by one sub-call only is copied; partials of a shared one are summed.
    const write = shared ? addInto : (target, part, offset) => target.set(part, offset);
    write(whole.dk, result.dk, spans.keys(dims.dq)[0]);
    write(whole.dv, result.dv, spans.keys(dims.dv)[0]);
  });
  return readInputGradients(checkedRead(setup.fn, blocks, whole), inputs);
}

/**
 * read(name, into) of the assembled results, with the synchronous call's overflow check and its
 * options.out (boundary/memory.js): into gets the whole block once it is known to be finite.
 */
const checkedRead = (fn, blocks, whole) => (name, into) => {
  expectNoOverflow(fn, blocks, name, whole[name]);
  return into === undefined ? whole[name] : writeOut(fn, into, whole[name]);
};

function addInto(target, part, offset) {
  for (let i = 0; i < part.length; i++) target[offset + i] += part[i];
}
