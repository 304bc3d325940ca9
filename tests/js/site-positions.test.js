// The explorer state's issue-12 fields: conform keeps them in range, grouped heads share Wk and
// Wv, and an edit of a shared weight reaches every head of its group.
import { describe, expect, it } from 'vitest';
import { conform } from '../../web/model/state/conform.js';
import { setCell } from '../../web/model/state/edit.js';
import { presetState } from '../../web/model/presets/index.js';

describe('explorer positions state', () => {
  it('conform clamps the window to integers in [-1, 16], and drops RoPE on an odd width or given Q, K, V', () => {
    const base = presetState('seed-004');
    expect(conform({ ...base, window: [2.4, -7] }).window).toEqual([2, -1]);
    expect(conform({ ...base, window: 'wide' }).window).toEqual([-1, -1]);
    expect(conform({ ...base, alibi: 'yes' }).alibi).toBe('off');
    expect(conform({ ...base, rope: 'interleaved', ropeBase: -3 })).toMatchObject({ rope: 'interleaved', ropeBase: 10000 });
    const odd = conform({ ...base, wq: [[[1, 0, 0], [0, 1, 0]]], wk: [[[1, 0, 0], [0, 1, 0]]], rope: 'halves' });
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
});
