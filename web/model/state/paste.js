// Pasting a matrix onto an editable matrix of the state (a cell of it named as the figures name
// it: { stage, head, batch, row, col, scoring, param }):
//   one number          sets that cell
//   one row as wide as the matrix, onto a matrix of several rows: sets the cell's row
//   anything else       replaces the whole matrix, and the sizes follow its shape: X sets T and
//                       d_in, W^Q and W^K set d_in and d_q, W^V d_in and d_v ('qkv' states: Q sets
//                       T_q and d, K T_k and d, V T_k and d_v); the other matrices of a changed size
//                       are cut or grown with seeded numbers, and a note names them
// W^O, the target and the scoring's parameters keep their shape: a matrix of another shape is refused.
//   pasteMatrix(state, cell, rows) -> { state, what: 'cell' | 'row' | 'matrix', notes: [note] }
//   pasteText(state, cell, text)   -> the same with the text's { rows, cols, value (its first number) },
//                                     the text read by parseMatrix (which throws its MatrixTextError)
//   note: { code: 'resized', size, from, to, others: [stage ids that changed with it] }
// or throws a PasteError (a RangeError) with code 'shape' { expected: [R, C], got } or
// 'too-large' { size, got, limit: [lo, hi] }.
import { parseMatrix } from '../numbers/parse-matrix.js';
import { groupLeader, LIMITS } from './model.js';
import { setSize, sizeControls } from './sizes.js';

export class PasteError extends RangeError {
  constructor(code, fields, message) {
    super(`pasteMatrix: ${message}`);
    this.name = 'PasteError';
    this.code = code;
    Object.assign(this, fields);
  }
}

// The sizes a matrix's rows and columns set, per source.
const SIZES = {
  self: { x: ['tokens', 'dIn'], wq: ['dIn', 'dQ'], wk: ['dIn', 'dQ'], wv: ['dIn', 'dV'] },
  qkv: { q: ['queries', 'd'], k: ['keys', 'd'], v: ['keys', 'dv'] },
};
// The matrices each size shapes (the target follows the output silently: Train's goal, reseeded).
const SHAPED_BY = {
  tokens: ['x'],
  dIn: ['x', 'wq', 'wk', 'wv', 'wo'],
  dQ: ['wq', 'wk'],
  dV: ['wv', 'wo'],
  queries: ['q'],
  keys: ['k', 'v'],
  d: ['q', 'k'],
  dv: ['v'],
};
const TOKEN_SIZES = new Set(['tokens', 'queries', 'keys']);

/** The matrix (R, C) a cell belongs to, as rows (a vector parameter as one row). */
export function matrixOf(state, { stage, head = 0, batch = 0, scoring, param }) {
  if (stage === 'x') return state.x;
  if (['wq', 'wk', 'wv'].includes(stage)) return state[stage][head];
  if (['q', 'k', 'v'].includes(stage)) return state[stage][batch];
  if (stage === 'wo') return state.wo;
  if (stage === 'target') return state.backward.target[batch];
  const p = state.params[scoring][param];
  return Array.isArray(p[0]) ? p : [p];
}

/** A copy of state with the matrix of `cell` replaced by rows (its shape already the matrix's). */
function withMatrix(state, cell, rows) {
  const next = structuredClone(state);
  const { stage, head = 0, batch = 0 } = cell;
  const copy = () => rows.map((row) => row.slice());
  if (stage === 'x') next.x = copy();
  else if (stage === 'wq') next.wq[head] = copy();
  else if (stage === 'wk' || stage === 'wv') {
    // Grouped heads share Wk and Wv: the paste reaches every head of the group (as setCell's edit).
    const leader = groupLeader(head, state.heads, state.kvHeads);
    for (let h = leader; h < leader + state.heads / state.kvHeads; h++) next[stage][h] = copy();
  } else if (['q', 'k', 'v'].includes(stage)) next[stage][batch] = copy();
  else if (stage === 'wo') next.wo = copy();
  else if (stage === 'target') next.backward.target[batch] = copy();
  else {
    const p = next.params[cell.scoring];
    p[cell.param] = Array.isArray(p[cell.param][0]) ? copy() : rows[0].slice();
  }
  return next;
}

/** The state with `rows` pasted at `cell` (see the top of the file). */
export function pasteMatrix(state, cell, rows) {
  const current = matrixOf(state, cell);
  const [R, C] = [rows.length, rows[0].length];
  if (R === 1 && C === 1) {
    const patch = current.map((row) => row.slice());
    patch[cell.row][cell.col] = rows[0][0];
    return { state: withMatrix(state, cell, patch), what: 'cell', notes: [] };
  }
  if (R === 1 && current.length > 1 && C === current[0].length) {
    const patch = current.map((row, i) => (i === cell.row ? rows[0].slice() : row.slice()));
    return { state: withMatrix(state, cell, patch), what: 'row', notes: [] };
  }
  const sizes = SIZES[state.source][cell.stage];
  if (!sizes) {
    if (R !== current.length || C !== current[0].length) {
      throw new PasteError(
        'shape',
        { expected: [current.length, current[0].length], got: [R, C] },
        `${cell.stage} must stay ${current.length} × ${current[0].length}, got ${R} × ${C}`,
      );
    }
    return { state: withMatrix(state, cell, rows), what: 'matrix', notes: [] };
  }
  let next = state;
  const notes = [];
  for (const [size, n] of [
    [sizes[0], R],
    [sizes[1], C],
  ]) {
    const limit = TOKEN_SIZES.has(size) ? LIMITS.tokens : LIMITS.width;
    if (n < limit[0] || n > limit[1])
      throw new PasteError('too-large', { size, got: n, limit }, `${size} would be ${n}; the explorer takes ${limit[0]} to ${limit[1]}`);
    const from = Object.fromEntries(sizeControls(next))[size];
    if (from === n) continue;
    next = setSize(next, size, n);
    const others = SHAPED_BY[size].filter((id) => id !== cell.stage && (id !== 'wo' || next.wo));
    notes.push({ code: 'resized', size, from, to: n, others });
  }
  return { state: withMatrix(next, cell, rows), what: 'matrix', notes };
}

/** Pasted text (any form parseMatrix reads) at `cell`. */
export function pasteText(state, cell, text) {
  const { data, rows, cols } = parseMatrix(text);
  return { ...pasteMatrix(state, cell, data), rows, cols, value: data[0][0] };
}
