// scaledDotProductAttention checks q, k and v for NaN and infinities in wasm memory, on the copy its
// arena makes (validate.js's scanInArena, the core's f32_first_nonfinite), instead of in a JS loop
// before the copy; its backward q, k, v, dOutput and saved.output the same way (saved.lse, which
// may hold -Infinity, is checked in JS). These tests pin that the guarantee is the same: a
// non-finite value anywhere (in a vector, across the kernel's 1024-float blocks, in the tail) is a
// TypeError naming the argument and its flat index, no input changes, and the module keeps working.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { sdpaReference } from '../../reference/index.js';

const SHAPES = { q: [1, 2, 3, 4], k: [1, 2, 601, 4], v: [1, 2, 601, 4] }; // k, v: 4808 floats, 4 blocks and a tail

/**
 * Puts NaN, Infinity and -Infinity in turn at six places of inputs[name] (vector lanes, the scan's
 * 1024-float blocks, the tail), each time expecting call() to throw fn's TypeError that names the
 * argument, the value and its flat index, and to leave every input as it was.
 */
function expectEveryNonFiniteRefused(fn, call, inputs, name) {
  const before = Object.fromEntries(Object.entries(inputs).map(([n, t]) => [n, t.data.slice()]));
  const { data, shape } = inputs[name];
  for (const at of [0, 5, 1023, 1024, 2051, data.length - 1])
    for (const bad of [NaN, Infinity, -Infinity]) {
      if (at >= data.length) continue;
      const given = data[at];
      data[at] = bad;
      expect(call).toThrow(TypeError);
      expect(call).toThrow(new RegExp(`${fn}: ${name} must hold finite numbers, got ${bad} at flat index ${at} of shape \\[${shape.join(', ')}\\]`));
      expect(data[at]).toBe(bad);
      data[at] = given;
    }
  for (const n of Object.keys(inputs)) expect(inputs[n].data).toEqual(before[n]);
}

describe.each(BACKENDS)('$backend: the finiteness check of scaledDotProductAttention in wasm memory', (which) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(which);
  });

  it.each(['q', 'k', 'v'])('a NaN or an Infinity anywhere in %s is a TypeError naming it, and no input changes', (name) => {
    const rand = seededRandom(5);
    const inputs = Object.fromEntries(Object.entries(SHAPES).map(([n, shape]) => [n, randomTensor(rand, shape)]));
    const call = () => attn.scaledDotProductAttention(inputs.q, inputs.k, inputs.v, { causal: 'bottom-right' });
    expectEveryNonFiniteRefused('scaledDotProductAttention', call, inputs, name);
    // The module works on after the refusals: the float64 reference's answer (float32 rounding of
    // a softmax-weighted sum of ~600 values of magnitude ~1).
    const { output } = call();
    const expected = sdpaReference(inputs.q, inputs.k, inputs.v, { causal: 'bottom-right' });
    expectClose(output, { data: expected.out, shape: output.shape }, { rtol: 1e-5, atol: 1e-6, label: 'output after the refusals' });
  });

  it('the largest finite floats pass the check (their differences are 0, whatever their sums)', () => {
    const q = { data: new Float32Array(4).fill(1e-38), shape: [1, 1, 1, 4] };
    const k = { data: new Float32Array(8).fill(3.4e38), shape: [1, 1, 2, 4] };
    const v = { data: new Float32Array(8).fill(-3.4e38), shape: [1, 1, 2, 4] };
    const { output } = attn.scaledDotProductAttention(q, k, v);
    expect(Array.from(output.data)).toEqual([-3.4e38, -3.4e38, -3.4e38, -3.4e38].map(Math.fround));
  });

  it.each(['q', 'k', 'v', 'dOutput', 'saved.output'])(
    'backward: a NaN or an Infinity anywhere in %s is a TypeError naming it, and no input changes',
    (name) => {
      const rand = seededRandom(6);
      const inputs = Object.fromEntries(Object.entries(SHAPES).map(([n, shape]) => [n, randomTensor(rand, shape)]));
      inputs.dOutput = randomTensor(rand, SHAPES.q);
      const saved = attn.scaledDotProductAttention(inputs.q, inputs.k, inputs.v, { returnLse: true });
      inputs['saved.output'] = saved.output;
      const call = () =>
        attn.scaledDotProductAttentionBackward(inputs.q, inputs.k, inputs.v, inputs.dOutput, {
          saved: { output: inputs['saved.output'], lse: saved.lse },
        });
      const expected = call();
      expectEveryNonFiniteRefused('scaledDotProductAttentionBackward', call, inputs, name);
      // The module works on after the refusals, to the bit: the same call gives the same gradients.
      const again = call();
      for (const g of ['dq', 'dk', 'dv']) expect(again[g].data).toEqual(expected[g].data);
    },
  );
});
