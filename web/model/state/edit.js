// Edits of single values: typing or scrubbing a cell, clicking a score to mask it.
// A cell is named as the figures name it: { stage, head, batch, row, col, scoring, param }.
import { groupLeader } from './model.js';

/** A copy of `state` with the value of an editable cell replaced. */
export function setCell(state, cell, value) {
  const next = structuredClone(state);
  const { stage, head = 0, batch = 0, row, col } = cell;
  if (stage === 'x') next.x[row][col] = value;
  else if (stage === 'wq') next.wq[head][row][col] = value;
  else if (stage === 'wk' || stage === 'wv') {
    // Grouped heads share Wk and Wv: the edit reaches every head of the group.
    const leader = groupLeader(head, state.heads, state.kvHeads);
    for (let h = leader; h < leader + state.heads / state.kvHeads; h++) next[stage][h][row][col] = value;
  } else if (['q', 'k', 'v'].includes(stage) && state.source === 'qkv') next[stage][batch][row][col] = value;
  else if (stage === 'wo' && state.wo) next.wo[row][col] = value;
  else if (stage === 'target') next.backward.target[batch][row][col] = value;
  else if (stage === 'params') {
    const p = next.params[cell.scoring];
    if (Array.isArray(p[cell.param][0])) p[cell.param][row][col] = value;
    else p[cell.param][col] = value;
  } else throw new TypeError(`setCell: stage '${stage}' is not editable`);
  return next;
}

/** The value a state holds for an editable cell (the number as typed, not its float32). */
export function cellValue(state, cell) {
  const { stage, head = 0, batch = 0, row, col } = cell;
  if (stage === 'x') return state.x[row][col];
  if (['wq', 'wk', 'wv'].includes(stage)) return state[stage][head][row][col];
  if (['q', 'k', 'v'].includes(stage)) return state[stage][batch][row][col];
  if (stage === 'wo') return state.wo[row][col];
  if (stage === 'target') return state.backward.target[batch][row][col];
  const p = state.params[cell.scoring][cell.param];
  return Array.isArray(p[0]) ? p[row][col] : p[col];
}

/** Masks score (b, i, j) by hand, or unmasks it. */
export function toggleMaskedCell(state, b, i, j) {
  const has = state.maskedCells.some(([mb, mi, mj]) => mb === b && mi === i && mj === j);
  return {
    ...state,
    maskedCells: has ? state.maskedCells.filter(([mb, mi, mj]) => !(mb === b && mi === i && mj === j)) : [...state.maskedCells, [b, i, j]],
  };
}

/** Check mode on for a stage (empty entries of the given (B, R, C) shape) or off. */
export function toggleCheck(state, stage, [B, R, C]) {
  const checks = { ...state.checks };
  if (checks[stage]) delete checks[stage];
  else checks[stage] = Array.from({ length: B }, () => Array.from({ length: R }, () => Array(C).fill('')));
  return { ...state, checks };
}

/** A stage in check mode checked (its marks and exact values shown) or only revealed (the exact values). */
export function markChecked(state, stage, how = 'checked') {
  if (state.checked?.[stage] === 'checked') return state;
  return { ...state, checked: { ...state.checked, [stage]: how } };
}

/**
 * Numbers pasted into check mode, as written (texts: rows of strings): the whole grid when they
 * have its shape, else from cell (batch, row, col) on, cut at the grid's edges.
 */
export function setCheckEntries(state, stage, { batch, row, col }, texts) {
  const checks = structuredClone(state.checks);
  const grid = checks[stage]?.[batch];
  if (!grid) return state;
  const whole = texts.length === grid.length && texts[0].length === grid[0].length;
  const [r0, c0] = whole ? [0, 0] : [row, col];
  texts.forEach((line, i) =>
    line.forEach((text, j) => {
      if (grid[r0 + i] && c0 + j < grid[r0 + i].length) grid[r0 + i][c0 + j] = text;
    }),
  );
  return { ...state, checks };
}

/** The number typed for cell (batch, row, col) of a stage in check mode, as typed. */
export function setCheckEntry(state, stage, { batch, row, col }, text) {
  const checks = structuredClone(state.checks);
  const blocks = checks[stage] ?? [];
  while (blocks.length <= batch) blocks.push([]);
  while (blocks[batch].length <= row) blocks[batch].push([]);
  const cells = blocks[batch][row];
  while (cells.length <= col) cells.push('');
  cells[col] = text;
  checks[stage] = blocks;
  return { ...state, checks };
}

// Pasting a matrix: loaded with the rest of the editing code.
export { matrixOf, pasteMatrix, pasteText, PasteError } from './paste.js';
