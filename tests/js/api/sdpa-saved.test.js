// scaledDotProductAttentionBackward(..., { saved }): given the forward's output and lse, the
// backward skips recomputing them (the fused kernels' D = rowsum(dO * O) and P = exp(S - lse)), and
// must give the gradients of the backward that recomputes them, on one thread and on the pool.
import { describe, expect, it } from 'vitest';
import { BACKENDS, backendWithPool } from '../support/backends.js';
import { expectClose, sdpaProblem } from '../support/numeric.js';

// Not bit for bit: the recomputing backward runs the forward in its own query blocks, whose last
// key block may end elsewhere, which moves where the vector sums split into tails: a few ulp of
// O(1) values (seen: below 1e-7). A wrong lse or output row changes gradients by 1e-2 or more.
const SAME = { atol: 1e-6, rtol: 1e-5 };

function expectSameGradients(actual, expected, label) {
  for (const name of ['dq', 'dk', 'dv']) expectClose(actual[name], expected[name], { ...SAME, label: `${label}: ${name}` });
}

describe.each(BACKENDS)('the backward given the saved forward ($backend)', (build) => {
  const apis = backendWithPool(build);

  it('gives the gradients of the backward that recomputes the forward', () => {
    const { q, k, v, dout, options } = sdpaProblem(1);
    const forward = apis.attn.scaledDotProductAttention(q, k, v, { ...options, returnLse: true });
    expect(forward.lse.data.some((x) => x === -Infinity)).toBe(true); // fully masked rows are covered
    const saved = apis.attn.scaledDotProductAttentionBackward(q, k, v, dout, { ...options, saved: forward });
    expectSameGradients(saved, apis.attn.scaledDotProductAttentionBackward(q, k, v, dout, options), 'saved vs recomputed');
  });

  it('reads the saved lse: one raised by log 2 halves every weight, so dv halves', () => {
    // P = exp(S - lse) is recomputed from the saved lse; dv = P^T dO is linear in P. (dq and dk are
    // not simply halved: D = rowsum(dO * O) comes from the saved output, which is unchanged.)
    const { q, k, v, dout, options } = sdpaProblem(4);
    const forward = apis.attn.scaledDotProductAttention(q, k, v, { ...options, returnLse: true });
    const raised = { data: forward.lse.data.map((x) => x + Math.LN2), shape: forward.lse.shape };
    const exact = apis.attn.scaledDotProductAttentionBackward(q, k, v, dout, { ...options, saved: forward });
    const halved = apis.attn.scaledDotProductAttentionBackward(q, k, v, dout, { ...options, saved: { output: forward.output, lse: raised } });
    const half = { data: exact.dv.data.map((x) => x / 2), shape: exact.dv.shape };
    expectClose(halved.dv, half, { ...SAME, label: 'dv with lse + log 2' });
  });

  it('gives the same gradients on the worker pool, which cuts the saved rows with the call', async () => {
    const { q, k, v, dout, options } = sdpaProblem(2);
    const forward = apis.attn.scaledDotProductAttention(q, k, v, { ...options, returnLse: true });
    const pooled = await apis.parallel.scaledDotProductAttentionBackward(q, k, v, dout, { ...options, saved: forward });
    expectSameGradients(pooled, apis.attn.scaledDotProductAttentionBackward(q, k, v, dout, options), 'pool, saved vs recomputed');
  });

  it('rejects a saved forward without lse or of the wrong shape, naming it', () => {
    const { q, k, v, dout, options } = sdpaProblem(3);
    const forward = apis.attn.scaledDotProductAttention(q, k, v, { ...options, returnLse: true });
    const call = (saved) => () => apis.attn.scaledDotProductAttentionBackward(q, k, v, dout, { ...options, saved });
    expect(call({ output: forward.output })).toThrow(TypeError);
    expect(call({ output: forward.output })).toThrow(/saved must be the forward's result with output and lse/);
    const wrongShape = { data: new Float32Array(10), shape: [10] };
    expect(call({ output: wrongShape, lse: forward.lse })).toThrow(RangeError);
    expect(call({ output: wrongShape, lse: forward.lse })).toThrow(/saved\.output must have the shape of the output/);
    expect(call({ output: forward.output, lse: wrongShape })).toThrow(/saved\.lse must have the shape of the log-sum-exp/);
    expect(() => apis.attn.scaledDotProductAttention(q, k, v, { saved: forward })).toThrow(/saved/); // a backward-only option
  });
});
