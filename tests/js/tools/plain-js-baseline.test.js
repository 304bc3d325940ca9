// The plain-JS baseline the speed panel and the benchmarks time (web/measure/plain-js-attention.js): it must
// compute the same attention as the float64 reference, or the speed ratios compare unlike work.
import { describe, expect, it } from 'vitest';
import { attentionBackward, attentionForward } from '../../../web/measure/plain-js-attention.js';
import { attentionReference } from '../../reference/index.js';
import { seededRandom } from '../support/numeric.js';

// float32 sums of d = 8 products of values of order 1: a few ulps of 1.
const FLOAT32 = 2e-6;

describe('the plain-JS baseline', () => {
  for (const causal of [false, true]) {
    it(`forward and backward agree with the float64 reference${causal ? ' under a causal mask' : ''}`, () => {
      const [H, T, d] = [2, 5, 8];
      const random = seededRandom(causal ? 2 : 1);
      const draw = () => Float32Array.from({ length: H * T * d }, random); // uniform in (-1, 1)
      const [q, k, v, dout] = [draw(), draw(), draw(), draw()];
      const scale = 1 / Math.sqrt(d);
      const out = new Float32Array(H * T * d);
      attentionForward(q, k, v, out, H, T, d, scale, causal);
      const grads = [new Float32Array(H * T * d), new Float32Array(H * T * d), new Float32Array(H * T * d)];
      attentionBackward(q, k, v, dout, ...grads, H, T, d, scale, causal);
      const tensor = (data) => ({ data: Float64Array.from(data), shape: [1, H, T, d] });
      const ref = attentionReference(tensor(q), tensor(k), tensor(v), { scale, ...(causal ? { causal: 'top-left' } : {}) }, tensor(dout));
      const worst = (a, b) => Math.max(...Array.from(a, (x, n) => Math.abs(x - b[n])));
      expect(worst(out, ref.out)).toBeLessThan(FLOAT32);
      expect(worst(grads[0], ref.dq)).toBeLessThan(FLOAT32);
      expect(worst(grads[1], ref.dk)).toBeLessThan(FLOAT32);
      expect(worst(grads[2], ref.dv)).toBeLessThan(FLOAT32);
    });
  }
});
