// pipelineState(spec), the figures' spec -> the explorer state: ALiBi's `alibi: true | false |
// number[]` (issue 12). A list is checked against the heads the figure ends with, and a wrong one
// is a RangeError naming alibi, never a figure silently drawn without ALiBi.
import { describe, expect, it } from 'vitest';
// Through the figures entry, as a page calls it: async, it loads the preset each spec names.
import { pipelineState } from '../../../web/figures/index.js';

describe('pipelineState alibi', () => {
  it('takes true for the paper’s slopes, false for none, and a list of one slope per head', async () => {
    expect((await pipelineState({ preset: 'sentence', alibi: true })).alibi).toBe('paper');
    expect((await pipelineState({ preset: 'alibi', alibi: false })).alibi).toBe('off');
    expect((await pipelineState({ preset: 'sentence', alibi: [0.5, 0.25] })).alibi).toEqual([0.5, 0.25]);
    // Counted after heads: seed-004 has one head, the figure asks for two.
    expect(await pipelineState({ preset: 'seed-004', heads: 2, alibi: [0.5, 0.25] })).toMatchObject({ heads: 2, alibi: [0.5, 0.25] });
    expect((await pipelineState({ preset: 'd2l', alibi: [0.125] })).alibi).toEqual([0.125]);
  });

  it('a list of the wrong length or with a slope that is not a finite float32 number > 0 is a RangeError naming alibi', async () => {
    const wrong = [
      [{ preset: 'seed-004', alibi: [0.5, 0.25] }, /alibi must hold one slope per head, H=1, got 2/],
      [{ preset: 'sentence', heads: 3, alibi: [0.5, 0.25] }, /alibi must hold one slope per head, H=3, got 2/],
      [{ preset: 'sentence', alibi: [] }, /alibi must hold one slope per head, H=2, got 0/],
      [{ preset: 'sentence', alibi: [0.5, 0] }, /alibi\[1\] must be a finite number > 0 .*got 0/],
      [{ preset: 'sentence', alibi: [-1, 0.5] }, /alibi\[0\] must be .*got -1/],
      [{ preset: 'sentence', alibi: [0.5, NaN] }, /alibi\[1\] must be .*got NaN/],
      [{ preset: 'sentence', alibi: [Infinity, 0.5] }, /alibi\[0\] must be .*got Infinity/],
      [{ preset: 'sentence', alibi: [0.5, 1e39] }, /alibi\[1\] must be .*\(and finite as float32\), got 1e\+39/],
      [{ preset: 'sentence', alibi: [0.5, '0.25'] }, /alibi\[1\] must be .*got "0.25"/],
      [{ preset: 'sentence', alibi: [0.5, ,] } /* eslint-disable-line no-sparse-arrays */, /alibi\[1\] must be .*got undefined/], // a hole, not a slope
    ];
    for (const [spec, message] of wrong) await expect(pipelineState(spec), JSON.stringify(spec)).rejects.toThrow(message);
    for (const [spec] of wrong) await expect(pipelineState(spec)).rejects.toThrow(RangeError);
    await expect(pipelineState({ alibi: 'paper' })).rejects.toThrow(
      new TypeError('alibi must be true (the paper\'s slopes), false or a list of H slopes, got "paper"'),
    );
  });
});

describe('pipelineState specs', () => {
  it('an unknown preset, a spec that is not an object and bad data reject with a TypeError naming the field', async () => {
    await expect(pipelineState({ preset: 'seed-005' })).rejects.toThrow(
      new TypeError(`preset must be one of 'seed-004', 'seed-002', 'd2l', 'sentence', 'sliding-window', 'alibi', 'rotary', 'decode', 'random', got "seed-005"`),
    );
    await expect(
      pipelineState({
        preset: {
          toString: () => {
            throw new Error('read');
          },
        },
      }),
    ).rejects.toThrow(/^preset must be one of /);
    await expect(pipelineState(null)).rejects.toThrow(new TypeError('spec must be an object ({ preset, data, ... }), got null'));
    await expect(pipelineState([])).rejects.toThrow(TypeError);
    await expect(pipelineState({ data: null })).rejects.toThrow(/^data must be an object/);
    // Data alone loads no preset: its own example.
    expect(await pipelineState({ data: { q: [[[1, 0]]], k: [[[1, 0]]], v: [[[1, 0]]] } })).toMatchObject({ preset: 'custom', source: 'qkv' });
    expect((await pipelineState()).preset).toBe('seed-004');
  });
});
