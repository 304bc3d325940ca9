// givenState (web/model/state/given.js): a figure's own data is drawn as given or refused with the
// key's name. The cases below are the ways a blogger's JSON goes wrong (issue 33): each must be an
// error naming the key, never a figure drawn with seeded numbers in place of the given ones.
import { describe, expect, it } from 'vitest';
import { givenState } from '../../../web/model/state/given.js';
import { presetRaw } from '../../../web/model/presets/index.js';
import { conform } from '../../../web/model/state/conform.js';
import { SEED_004 } from '../../support/seed-004.js';

const CUSTOM = { preset: 'custom' };

describe('givenState', () => {
  it('reads 2-D wq, wk, wv as one head and 2-D q, k, v as one batch, as the API takes them', () => {
    const state = givenState(CUSTOM, SEED_004);
    expect(state.wq).toEqual([SEED_004.wq]);
    expect(state.wk).toEqual([SEED_004.wk]);
    expect(state.wv).toEqual([SEED_004.wv]);
    expect(state.x).toEqual(SEED_004.x);
    const qkv = givenState(CUSTOM, {
      q: [[1, 0]],
      k: [
        [1, 0],
        [0, 1],
      ],
      v: [
        [1, 2],
        [3, 4],
      ],
    });
    expect(qkv).toMatchObject({
      source: 'qkv',
      q: [[[1, 0]]],
      k: [
        [
          [1, 0],
          [0, 1],
        ],
      ],
      v: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
    });
  });

  it('keeps every value of a whole conformed state, as the Embed dialog writes it', () => {
    for (const id of ['seed-004', 'seed-002', 'd2l', 'sentence', 'alibi', 'rotary', 'decode']) {
      const state = conform(presetRaw(id));
      expect(givenState(CUSTOM, JSON.parse(JSON.stringify(state))), id).toEqual(state);
    }
  });

  it("ignores the explorer link's page-only parts (check mode, the speed panel), as embed.html passes them on", () => {
    const page = { ...SEED_004, checks: { q: [[['1', '0']]] }, checked: { q: 'checked' }, speed: { T: 256, d: 64, heads: 4 } };
    const state = givenState(CUSTOM, page);
    expect(state.x).toEqual(SEED_004.x);
    expect(state).not.toHaveProperty('checked');
  });

  it('names an unknown key, with the known key it resembles', () => {
    expect(() => givenState(CUSTOM, { ...SEED_004, Wq: SEED_004.wq })).toThrow(
      new TypeError(
        "data has an unknown key 'Wq' (did you mean 'wq'?); known keys: version, preset, source, seed, tokens, keyTokens, x, heads, wq, wk, wv, wo, kvHeads, q, k, v, scoring, compare, params, hidden, scale, temperature, causal, validLens, maskedCells, maskFill, window, alibi, rope, ropeBase, view, head, backward",
      ),
    );
    expect(() => givenState(CUSTOM, { weights: [] })).toThrow(/^data has an unknown key 'weights'; known keys: /);
  });

  it('names a value that is not a finite number, and a ragged matrix, by its place', () => {
    const cases = [
      [
        {
          ...SEED_004,
          wv: [
            [1, 0],
            [1, 'one'],
          ],
        },
        TypeError,
        'wv[0][1][1] must be a finite number, got "one"',
      ],
      [
        {
          ...SEED_004,
          x: [
            [1, 2],
            [0, null],
            [3, 1],
          ],
        },
        TypeError,
        'x[1][1] must be a finite number, got null',
      ],
      [{ ...SEED_004, x: [[1, 2], [0, 1], [3]] }, RangeError, 'x must be rectangular: x[2] has shape (1), x[0] (2)'],
      [{ ...SEED_004, x: 'one two' }, TypeError, 'x must be a 2-D array of numbers, got "one two"'],
      [{ ...SEED_004, tokens: ['a', 2, 'c'] }, TypeError, 'tokens[1] must be a non-empty string of at most 24 characters, got 2'],
    ];
    for (const [data, kind, message] of cases) expect(() => givenState(CUSTOM, data), message).toThrow(new kind(message));
  });

  it('names a shape that does not fit the rest of the example, with the shape it needs', () => {
    const cases = [
      [
        {
          ...SEED_004,
          wk: [
            [1, 1, 0],
            [0, 1, 0],
          ],
        },
        'wk has shape (1, 2, 3) but this example needs (1, 2, 2) (H, d_in, d_q)',
      ],
      [
        {
          ...SEED_004,
          wq: [
            [1, 0],
            [0, 1],
            [1, 1],
          ],
        },
        'wq has shape (1, 3, 2) but this example needs (1, 2, 2) (H, d_in, d_q)',
      ],
      [{ ...SEED_004, tokens: ['a', 'b'] }, 'tokens has shape (2) but this example needs (3) (T)'],
      [
        { x: Array.from({ length: 20 }, () => [1, 2]) },
        'x has shape (20, 2) but this example needs (16, 2) (T, d_in); a figure holds at most 16 tokens, widths of 12, 6 heads and batches of 4',
      ],
      [{ ...SEED_004, wo: [[1, 0]] }, 'wo has shape (1, 2) but this example needs (2, 2) (H d_v, d_in)'],
    ];
    for (const [data, message] of cases) expect(() => givenState(CUSTOM, data), message).toThrow(new RangeError(message));
  });

  it('names a setting that conform would have replaced, listing the words it takes', () => {
    expect(() => givenState(CUSTOM, { ...SEED_004, scoring: 'dott' })).toThrow(
      new TypeError('scoring must be one of "dot", "scaled-dot", "general", "additive", "concat", got "dott"'),
    );
    expect(() => givenState(CUSTOM, { ...SEED_004, backward: { loss: 'l2' } })).toThrow(/^backward\.loss must be one of "half-sum", "mean", got "l2"$/);
    expect(() => givenState(CUSTOM, { ...SEED_004, head: 3 })).toThrow(new RangeError('head cannot be 3 in this example (it would be drawn as 0)'));
    expect(() => givenState(CUSTOM, { ...SEED_004, temperature: 100 })).toThrow(
      new RangeError('temperature cannot be 100 in this example (it would be drawn as 20)'),
    );
    expect(() => givenState(CUSTOM, { ...SEED_004, q: [[1, 0]] })).toThrow(new TypeError("q does not apply to this example (its source is 'self')"));
  });

  it('refuses heads of one group with different W^K instead of copying the first over them', () => {
    const wq = [
      [
        [1, 0],
        [0, 1],
      ],
      [
        [0, 1],
        [1, 0],
      ],
    ];
    const wk = [
      [
        [1, 1],
        [0, 1],
      ],
      [
        [2, 0],
        [0, 2],
      ],
    ];
    expect(() => givenState(CUSTOM, { x: SEED_004.x, wq, wk, wv: wk, kvHeads: 1 })).toThrow(
      new RangeError("wk[1][0][0] differs from its group's first head: with kvHeads, the heads of one group share W^K and W^V"),
    );
  });

  it('edits a preset: the preset fills what the data leaves out, and may be resized around it', () => {
    const state = givenState(presetRaw('seed-004'), {
      x: [
        [1, 2, 3],
        [0, 1, 3],
        [3, 1, 2],
      ],
    });
    expect(state.x).toEqual([
      [1, 2, 3],
      [0, 1, 3],
      [3, 1, 2],
    ]);
    expect(state.wq[0]).toHaveLength(3); // the preset's W^Q grew with X; it was not given
  });
});
