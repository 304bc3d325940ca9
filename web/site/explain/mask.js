// Why a score is masked (or not): the constraints of the state that hide key j from query i.
// Visibility itself comes from the core (compute/index.js); this only names the reasons.
import { at } from '../../model/compute/tensors.js';
import { D2L_FILL } from '../../model/state/model.js';
import { ij, num } from './tex.js';

/** The reasons key j is hidden from query i in batch b ([] when visible). */
export function maskReasons(state, sizes, b, i, j) {
  const reasons = [];
  if (state.causal === 'top-left' && j > i) reasons.push(`causal (top-left): key ${j + 1} comes after query ${i + 1}`);
  if (state.causal === 'bottom-right' && j > i + sizes.Tk - sizes.Tq) reasons.push(`causal (bottom-right): key ${j + 1} > query ${i + 1} + Tk − Tq`);
  const [left, right] = state.window;
  const diagonal = i + sizes.Tk - sizes.Tq;
  if (left !== -1 && j < diagonal - left) reasons.push(`window [${left}, ${right}]: key ${j + 1} is more than ${left} before query ${i + 1}`);
  if (right !== -1 && j > diagonal + right) reasons.push(`window [${left}, ${right}]: key ${j + 1} is more than ${right} after query ${i + 1}`);
  const lens = state.validLens;
  if (lens) {
    const len = lens.per === 'row' ? lens.lens[b][i] : lens.lens[b];
    if (j >= len) reasons.push(`valid length ${len}: keys from ${len + 1} on are padding`);
  }
  if (state.maskedCells.some(([mb, mi, mj]) => mb === b && mi === i && mj === j)) reasons.push('masked by hand (click it again to unmask)');
  return reasons;
}

export function explainMasked(ctx, cell) {
  const { state, result } = ctx;
  const run = result.heads[cell.head].runs[cell.run];
  const value = at(run.masked, cell.batch, cell.row, cell.col);
  const reasons = maskReasons(state, result.sizes, cell.batch, cell.row, cell.col);
  const z = `z_{${ij(cell.row, cell.col)}}`;
  const head = result.heads[cell.head];
  // With ALiBi the visible score also gets the head's bias b_ij (the alibi stage).
  const bias = head.bias ? ` + (${num(at(head.bias, cell.batch, cell.row, cell.col))})` : '';
  const lines = reasons.length === 0
    ? [bias
      ? `${z} = \\tilde s_{${ij(cell.row, cell.col)}} + b_{${ij(cell.row, cell.col)}} + 0 = ${num(at(run.scaled, cell.batch, cell.row, cell.col))}${bias} = ${num(value)}`
      : `${z} = \\tilde s_{${ij(cell.row, cell.col)}} + 0 = ${num(value)}`]
    : [`${z} = \\tilde s_{${ij(cell.row, cell.col)}} + (-\\infty) = ${state.maskFill === 'd2l' ? `${num(D2L_FILL)}\\ \\text{(d2l fill)}` : '-\\infty'}`];
  return {
    heading: reasons.length ? 'Masked: this key is hidden from this query' : `Visible: the scaled score passes${bias ? ' with its ALiBi bias' : ' unchanged'}`,
    lines,
    note: reasons.length ? reasons.join('; ') : 'Click (or Enter) to mask it by hand.',
    sources: [{ stage: 'scaled', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row, col: cell.col }],
  };
}
