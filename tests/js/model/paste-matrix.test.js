// Pasting a matrix onto an editable matrix of the explorer's state (web/model/state/paste.js):
// the sizes follow the pasted shape, the other matrices of a changed size are named, and a matrix
// whose shape is fixed refuses another shape by name.
import { describe, expect, it } from 'vitest';
import { PasteError, pasteMatrix } from '../../../web/model/state/paste.js';
import { presetState } from '../../../web/model/presets/index.js';
import { conform } from '../../../web/model/state/conform.js';
import { sizesOf } from '../../../web/model/state/model.js';
import { SEED_002 } from '../../support/seed-002.js';

// seed 002's numbers (X 3 x 4, W 4 x 3; tests/support/seed-002.js), pasted onto seed 004 (X 3 x 2, W 2 x 2).
const { x: X, wq: WQ, wk: WK, wv: WV } = SEED_002;
const at = (stage) => ({ stage, head: 0, batch: 0, row: 0, col: 0 });

describe('pasteMatrix', () => {
  it('four pasted matrices turn seed 004 into seed 002, each size change named with the matrices it reshaped', () => {
    let state = presetState('seed-004');
    const steps = [
      ['x', X],
      ['wq', WQ],
      ['wk', WK],
      ['wv', WV],
    ].map(([stage, rows]) => {
      const pasted = pasteMatrix(state, at(stage), rows);
      state = conform(pasted.state);
      return pasted.notes;
    });
    expect(steps).toEqual([
      [{ code: 'resized', size: 'dIn', from: 2, to: 4, others: ['wq', 'wk', 'wv'] }],
      [{ code: 'resized', size: 'dQ', from: 2, to: 3, others: ['wk'] }],
      [],
      [{ code: 'resized', size: 'dV', from: 2, to: 3, others: [] }],
    ]);
    expect(state).toMatchObject({ x: X, wq: [WQ], wk: [WK], wv: [WV] });
    expect(sizesOf(state)).toMatchObject({ Tq: 3, dIn: 4, d: 3, dv: 3 });
  });

  it('a pasted X of more rows adds tokens', () => {
    const { state, notes } = pasteMatrix(presetState('seed-004'), at('x'), [
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
    ]);
    expect(notes).toEqual([{ code: 'resized', size: 'tokens', from: 3, to: 4, others: [] }]);
    expect(conform(state).tokens).toHaveLength(4);
  });

  it('one number sets the cell, one row as wide as the matrix sets the cell’s row', () => {
    const base = presetState('seed-004');
    expect(pasteMatrix(base, { ...at('x'), row: 1, col: 1 }, [[9]])).toMatchObject({
      what: 'cell',
      state: {
        x: [
          [1, 2],
          [0, 9],
          [3, 1],
        ],
      },
    });
    expect(pasteMatrix(base, { ...at('x'), row: 2, col: 0 }, [[7, 8]])).toMatchObject({
      what: 'row',
      state: {
        x: [
          [1, 2],
          [0, 1],
          [7, 8],
        ],
      },
    });
  });

  it('does not change the state it is given', () => {
    const base = presetState('seed-004');
    const copy = structuredClone(base);
    pasteMatrix(base, at('x'), X);
    expect(base).toEqual(copy);
  });

  it('refuses a target of another shape, and sizes past the explorer’s limits, by name', () => {
    const base = presetState('seed-004');
    expect(() =>
      pasteMatrix(base, at('target'), [
        [1, 2, 3],
        [4, 5, 6],
      ]),
    ).toThrow(PasteError);
    expect(() =>
      pasteMatrix(base, at('target'), [
        [1, 2, 3],
        [4, 5, 6],
      ]),
    ).toThrow(/target must stay 3 × 2, got 2 × 3/);
    const wide = [Array.from({ length: 13 }, () => 1), Array.from({ length: 13 }, () => 1)];
    let error = null;
    try {
      pasteMatrix(base, at('x'), wide);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'PasteError', code: 'too-large', size: 'dIn', got: 13, limit: [1, 12] });
  });

  it('in a Q, K, V state a pasted K sets the keys and V follows them', () => {
    const base = presetState('d2l');
    const { notes } = pasteMatrix(base, at('k'), [
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(notes).toEqual([{ code: 'resized', size: 'keys', from: 10, to: 3, others: ['v'] }]);
  });
});
