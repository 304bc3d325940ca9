// The trained model's example (tools/model/train_induction.py, examples/induction/): the three
// files hold the same (L, H, T, T) causal attentions, and layer 2 attends like induction heads.
import { describe, expect, it } from 'vitest';
import { readTensors } from '../../web/io/index.js';

const urls = import.meta.glob('../../examples/induction/attention.*', { query: '?url&inline', import: 'default', eager: true });
const bytes = (name) => Uint8Array.from(atob(urls[`../../examples/induction/${name}`].split(',')[1]), (c) => c.charCodeAt(0));
const PERIOD = 10; // the example's period (train_induction.py: period=10)
const JSON_ROUNDING = 5e-5; // the JSON keeps 4 decimals

describe('the induction model example', () => {
  it('attention.safetensors, .npy and .json hold the same (2, 4, 24, 24) weights and tokens', async () => {
    const st = await readTensors(bytes('attention.safetensors'), { name: 'attention.safetensors' });
    const npy = await readTensors(bytes('attention.npy'), { name: 'attention.npy' });
    const json = await readTensors(bytes('attention.json'), { name: 'attention.json' });
    const a = st.tensors.attention;
    expect(a.shape).toEqual([2, 4, 24, 24]);
    expect(npy.tensors.attention.data).toEqual(a.data);
    let worst = 0;
    json.tensors.attention.data.forEach((v, k) => {
      worst = Math.max(worst, Math.abs(v - a.data[k]));
    });
    expect(worst).toBeLessThanOrEqual(JSON_ROUNDING);
    expect(json.tokens).toEqual(st.tokens);
    expect(st.tokens.slice(0, PERIOD)).toEqual(st.tokens.slice(PERIOD, 2 * PERIOD));
  });

  it('every row is a causal softmax and layer 2 looks at the successor of the earlier occurrence', async () => {
    const { tensors } = await readTensors(bytes('attention.safetensors'), { name: 'attention.safetensors' });
    const { data } = tensors.attention;
    const T = 24;
    for (let row = 0; row < 2 * 4 * T; row++) {
      const i = row % T;
      let sum = 0;
      for (let j = 0; j < T; j++) {
        if (j > i) expect(data[row * T + j]).toBe(0);
        sum += data[row * T + j];
      }
      expect(Math.abs(sum - 1)).toBeLessThan(1e-5); // float32 sum of 24 terms
    }
    // Mean weight of query t on key t - PERIOD + 1 over the repeats, per layer-2 head (chance: ~1/t).
    for (let h = 0; h < 4; h++) {
      let score = 0;
      for (let t = PERIOD; t < T; t++) score += data[((4 + h) * T + t) * T + t - PERIOD + 1];
      expect(score / (T - PERIOD), `layer 2 head ${h + 1}`).toBeGreaterThan(0.3);
    }
  });
});
