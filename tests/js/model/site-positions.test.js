// The explorer state's issue-12 fields: conform keeps them in range (ALiBi's own slopes: one
// valid slope per head, or off), grouped heads share Wk and Wv, and an edit of a shared weight
// reaches every head of its group.
import { describe, expect, it } from 'vitest';
import { conform } from '../../../web/model/state/conform.js';
import { setCell } from '../../../web/model/state/edit.js';
import { setSize } from '../../../web/model/state/sizes.js';
import { presetState } from '../../../web/model/presets/index.js';

describe('explorer positions state', () => {
  it('conform clamps the window to integers in [-1, 16], and drops RoPE on an odd width or given Q, K, V', () => {
    const base = presetState('seed-004');
    expect(conform({ ...base, window: [2.4, -7] }).window).toEqual([2, -1]);
    expect(conform({ ...base, window: 'wide' }).window).toEqual([-1, -1]);
    expect(conform({ ...base, alibi: 'yes' }).alibi).toBe('off');
    expect(conform({ ...base, rope: 'interleaved', ropeBase: -3 })).toMatchObject({ rope: 'interleaved', ropeBase: 10000 });
    const odd = conform({
      ...base,
      wq: [
        [
          [1, 0, 0],
          [0, 1, 0],
        ],
      ],
      wk: [
        [
          [1, 0, 0],
          [0, 1, 0],
        ],
      ],
      rope: 'halves',
    });
    expect(odd.rope).toBe('off');
    expect(conform({ ...presetState('d2l'), rope: 'halves' }).rope).toBe('off');
  });

  it('kvHeads falls to a divisor of H, and an edit of a shared Wk reaches every head of its group', () => {
    const two = presetState('sentence');
    expect(conform({ ...two, kvHeads: 5 }).kvHeads).toBe(2);
    const grouped = conform({ ...two, kvHeads: 1 });
    expect(grouped.wk[1]).toEqual(grouped.wk[0]);
    expect(grouped.wq[1]).toEqual(two.wq[1]);
    const edited = conform(setCell(grouped, { stage: 'wk', head: 1, row: 0, col: 1 }, 9));
    expect([edited.wk[0][0][1], edited.wk[1][0][1]]).toEqual([9, 9]);
    const query = conform(setCell(grouped, { stage: 'wq', head: 1, row: 0, col: 1 }, 9));
    expect([query.wq[0][0][1], query.wq[1][0][1]]).toEqual([two.wq[0][0][1], 9]);
  });

  it('conform keeps one finite positive slope per head, and turns ALiBi off for any other list', () => {
    const two = presetState('sentence');
    expect(conform({ ...two, alibi: [0.5, 0.25] }).alibi).toEqual([0.5, 0.25]);
    expect(conform({ ...two, alibi: [1e-3, 3] }).alibi).toEqual([1e-3, 3]);
    const refused = [
      [0.5], // one slope for two heads
      [0.5, 0.25, 0.125],
      [0.5, 0],
      [0.5, -0.25],
      [0.5, NaN],
      [0.5, Infinity],
      [0.5, '0.25'],
      [0.5, null],
      [0.5, 1e39], // finite in float64, Infinity in float32
      [0.5, 2e37], // finite in float32, but slope (Tq + Tk) is not for 16 + 16 tokens
      [0.5, 1e-50], // 0 in float32: no bias at all
      // eslint-disable-next-line no-sparse-arrays -- a hole is the input under test
      [0.5, ,], // a hole, not a slope
      [],
    ];
    for (const alibi of refused) expect(conform({ ...two, alibi }).alibi, JSON.stringify(alibi)).toBe('off');
    // Given Q, K, V have one head.
    expect(conform({ ...presetState('d2l'), alibi: [0.5] }).alibi).toEqual([0.5]);
    expect(conform({ ...presetState('d2l'), alibi: [0.5, 0.25] }).alibi).toBe('off');
  });

  it('a change of heads resizes no list: the wrong length turns ALiBi off, the paper’s slopes stay', () => {
    const custom = conform({ ...presetState('sentence'), alibi: [0.5, 0.25] });
    expect(setSize(custom, 'heads', 3).alibi).toBe('off');
    expect(setSize(custom, 'heads', 1).alibi).toBe('off');
    expect(setSize(conform({ ...custom, alibi: 'paper' }), 'heads', 3).alibi).toBe('paper');
    // The state survives its own JSON (the URL holds it so).
    expect(conform(JSON.parse(JSON.stringify(custom)))).toEqual(custom);
  });
});
