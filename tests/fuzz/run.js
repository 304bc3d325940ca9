// Runs one fuzz case (cases.js) through the public API and checks the contract (contract.js)
// against the float64 references (tests/reference/index.js). Not a test file.
import { expect } from 'vitest';
import { attentionReference, maskedSoftmaxBackwardReference, maskedSoftmaxReference } from '../reference/index.js';
import { expectNamedError, expectNear, guardedCall, sameSnapshot, snapshot, toleranceOf } from './contract.js';

// exp's argument z - max of a weight that float32 can still show spans up to ~104 (e^-104 is
// float32's smallest subnormal); its rounding moves the weight by up to that many eps, relative.
const EXP_RANGE = 110;

/** Calls the API with the case's arguments, Object.prototype polluted for the call if the case says so. */
function invoke(attn, c) {
  const a = c.args;
  const run = () => {
    switch (c.fn) {
      case 'maskedSoftmax':
        return attn.maskedSoftmax(a.x, c.options);
      case 'maskedSoftmaxBackward':
        return attn.maskedSoftmaxBackward(a.weights, a.gradWeights, c.options);
      default:
        return c.fn.endsWith('Backward') ? attn[c.fn](a.q, a.k, a.v, a.gradOutput, c.options) : attn[c.fn](a.q, a.k, a.v, c.options);
    }
  };
  if (!c.pollute) return run();
  Object.prototype[c.pollute.key] = c.pollute.value;
  try {
    return run();
  } finally {
    delete Object.prototype[c.pollute.key];
  }
}

const maxAbs = (data) => {
  let m = 0;
  for (const x of data) if (Number.isFinite(x)) m = Math.max(m, Math.abs(x));
  return m;
};

/** The inputs a call must leave alone: its arguments and options (masks, parameters, saved). */
const inputsOf = (c) => ({ args: c.args, options: c.options, tensors: c.ref.tensors, params: c.ref.params }); // tensors: what getters and Proxies hand out

/** The forward's output and lse, passed to the backward (SdpaBackwardOptions.saved) when the case asks. */
function prepareSaved(attn, c) {
  if (!c.wantSaved || c.expect) return;
  const a = c.args;
  const forward = attn.scaledDotProductAttention(a.q, a.k, a.v, { ...c.options, returnLse: true });
  c.options.saved = { output: forward.output, lse: forward.lse };
}

/**
 * Runs case `c` (build(spec)) on `attn` / `module` and checks everything the contract says.
 * Returns what happened ('error' | 'result') for the suite's statistics.
 */
export function runCase(attn, module, c) {
  prepareSaved(attn, c);
  const outcome = guardedCall(module, inputsOf(c), () => invoke(attn, c));
  if (c.expect && !c.expect.sameAsValid) {
    expectNamedError(outcome, c.expect.names, c.fn);
    return 'error';
  }
  if (outcome.error) throw new Error(`${c.fn}: a valid call threw ${outcome.error.constructor.name}: ${outcome.error.message}`);
  checkResult(attn, module, c, outcome.result);
  return 'result';
}

/** A valid call's result vs the float64 reference (attn / module: the synchronous API, for repeats). */
export function checkResult(attn, module, c, result) {
  if (c.fn.startsWith('maskedSoftmax')) checkSoftmax(c, result);
  else checkAttention(attn, module, c, result);
}

/**
 * The same case through a ParallelAttention pool: its result vs the reference, or the named error;
 * inputs unchanged. (Each worker's wasm memory is its own: not observable from here.)
 */
export async function runCaseOnPool(pool, attn, module, c) {
  prepareSaved(attn, c);
  const before = snapshot(inputsOf(c));
  let outcome;
  try {
    outcome = { result: await invoke(pool, c) };
  } catch (error) {
    outcome = { error };
  }
  expect(sameSnapshot(before, snapshot(inputsOf(c))), 'the call changed its input').toBeNull();
  if (c.expect) {
    expectNamedError(outcome, c.expect.names, c.fn);
    return 'error';
  }
  if (outcome.error) throw new Error(`${c.fn} on the pool: a valid call threw ${outcome.error.constructor.name}: ${outcome.error.message}`);
  checkResult(attn, module, c, outcome.result);
  return 'result';
}

function checkSoftmax(c, result) {
  const { tensors, options } = c.ref;
  const Tk = c.shapes.scores[3];
  if (c.fn === 'maskedSoftmax') {
    const ref = maskedSoftmaxReference(tensors.x, options);
    expect(result.shape).toEqual(tensors.x.shape);
    expectNear(result, ref.y, ref.yAbs, toleranceOf({ n: EXP_RANGE + Tk, d: 0, Z: ref.Z }), 'maskedSoftmax: weights');
  } else {
    const ref = maskedSoftmaxBackwardReference(tensors.weights, tensors.gradWeights, options);
    expect(result.shape).toEqual(tensors.weights.shape);
    const linearMax = maxAbs(tensors.weights.data) * maxAbs(tensors.gradWeights.data);
    expectNear(result, ref.dx, ref.dxAbs, toleranceOf({ n: Tk + 4, d: 0, Z: 0, linearMax }), 'maskedSoftmaxBackward: dx');
  }
}

/** Result shapes in q's rank: (B, H, Tq, last) with the axes q's rank hides left out. */
function inQueryRank(c, last) {
  const q = c.ref.tensors.q.shape;
  return [...q.slice(0, -1), last];
}

function checkAttention(attn, module, c, result) {
  const { tensors, params, options } = c.ref;
  const { q, k, v, gradOutput } = tensors;
  const [B, H, Tq, Tk] = c.shapes.scores;
  const [dq, dk, dv] = [q.shape.at(-1), k.shape.at(-1), v.shape.at(-1)];
  const h = params.wv ? params.wv.shape[0] : 0;
  const dropout = (options.dropout ?? 0) > 0;
  const ref = attentionReference(q, k, v, options, c.fn.endsWith('Backward') ? gradOutput : null);
  const d = dq + dk + h; // roundings behind one score
  const linearMax = maxAbs(v.data) * (gradOutput ? Math.max(1, maxAbs(gradOutput.data)) : 1);
  const tol = (n) => toleranceOf({ n: EXP_RANGE + Tk + dq + dk + dv + h + n, d, Z: ref.Z, linearMax });
  if (c.fn.endsWith('Backward')) {
    const names = ['dq', 'dk', 'dv', ...Object.keys(params).map((p) => `d${p}`)];
    expect(Object.keys(result).sort()).toEqual(names.sort());
    if (dropout) return checkDeterministic(attn, module, c, result, names);
    for (const name of names) {
      // dq sums over keys, dk and dv over the query rows sharing a kv head, parameters over every pair.
      const n = name === 'dq' ? Tk : name === 'dk' || name === 'dv' ? B * H * Tq : B * H * Tq * Tk;
      const shape = (['dq', 'dk', 'dv'].includes(name) ? tensors : params)[name.slice(1)].shape;
      expect(result[name].shape, `${c.fn}: ${name} shape`).toEqual(shape);
      expectNear(result[name], ref[name], ref[`${name}Abs`], tol(n), `${c.fn}: ${name}`);
    }
    return;
  }
  expect(result.output.shape).toEqual(inQueryRank(c, dv));
  const scoresShape = inQueryRank(c, Tk);
  if (c.options.returnWeights) {
    expect(result.weights.shape).toEqual(scoresShape);
    expectNear(result.weights, ref.weights, ref.weights, tol(0), `${c.fn}: weights`);
  } else expect(result.weights).toBeUndefined();
  if (c.options.returnLse) {
    expect(result.lse.shape).toEqual(inQueryRank(c, 0).slice(0, -1));
    expectNear(
      result.lse,
      ref.lse,
      ref.lse.map((x) => 1 + Math.abs(x)),
      tol(0),
      `${c.fn}: lse`,
    );
  }
  if (c.options.trace) {
    const t = result.trace;
    const plus = (a, b) => a.map((x, i) => x + (Number.isFinite(b[i]) ? Math.abs(b[i]) : 0));
    expectNear(t.scores, ref.scores, ref.scoresAbs, tol(0), `${c.fn}: trace.scores`);
    expectNear(t.masked, ref.masked, plus(plus(ref.scoresAbs, ref.masked), ref.softcapped), tol(0), `${c.fn}: trace.masked`);
    if ((options.softcap ?? 0) > 0) expectNear(t.softcapped, ref.softcapped, plus(ref.scoresAbs, ref.softcapped), tol(0), `${c.fn}: trace.softcapped`);
    else expect(t.softcapped).toBeUndefined();
  }
  if (dropout) return checkDeterministic(attn, module, c, result, ['output']);
  expectNear(result.output, ref.out, ref.outAbs, tol(0), `${c.fn}: output`);
}

/**
 * The contract without the reference, for values whose float32 products overflow (extremes.test.js):
 * a named error where a fault was planted, otherwise a result or a TypeError / RangeError, with
 * inputs and wasm memory unchanged. Returns the result's tensors (empty after an error).
 */
export function runExtremeCase(attn, module, c) {
  const outcome = guardedCall(module, inputsOf(c), () => invoke(attn, c));
  if (c.expect) {
    expectNamedError(outcome, c.expect.names, c.fn);
    return [];
  }
  if (outcome.error) return [];
  const r = outcome.result;
  return [r.data ? r : null, r.output, r.weights, r.lse, r.dq, r.dk, r.dv, r.dw, r.dwq, r.dwk, r.dwv].filter(Boolean);
}

/**
 * runExtremeCase's contract plus the answer: a valid call either matches float64 (checkResult's
 * tolerances) or throws the RangeError saying an intermediate overflowed float32 (overflow.js).
 * Returns what happened ('error' | 'overflow' | 'result').
 */
export function runExtremeCaseAgainstFloat64(attn, module, c) {
  const outcome = guardedCall(module, inputsOf(c), () => invoke(attn, c));
  if (c.expect) {
    expectNamedError(outcome, c.expect.names, c.fn);
    return 'error';
  }
  if (outcome.error) {
    expect(outcome.error, String(outcome.error)).toBeInstanceOf(RangeError);
    expect(outcome.error.message).toMatch(new RegExp(`^${c.fn}: an intermediate overflowed float32 \\(\\|value\\| > 3\\.4e38\\) for these `));
    return 'overflow';
  }
  checkResult(attn, module, c, outcome.result);
  return 'result';
}

/** Dropout's keep mask is the core's own hash: its results are only checked finite and repeatable. */
function checkDeterministic(attn, module, c, result, names) {
  const again = guardedCall(module, inputsOf(c), () => invoke(attn, c));
  expect(again.error).toBeUndefined();
  for (const name of names) {
    expect(result[name].data.every(Number.isFinite), `${c.fn}: ${name} with dropout is finite`).toBe(true);
    expect(again.result[name].data, `${c.fn}: ${name} with dropout and the same seed is the same`).toEqual(result[name].data);
  }
}
