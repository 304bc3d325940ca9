// One entry of the ALiBi bias, and one entry of a rotated query or key with its pair's angle.
import { t } from '../../i18n/index.js';
import { at } from '../../model/compute/tensors.js';
import { num } from './tex.js';

/** bias_ij = -m |i + (Tk - Tq) - j| of the shown head. */
export function explainBias(ctx, cell) {
  const head = ctx.result.heads[cell.head];
  const { Tq, Tk } = ctx.result.sizes;
  const distance = Math.abs(cell.row + (Tk - Tq) - cell.col);
  return {
    heading: t(ctx.lang, 'explain.alibi', { row: cell.row + 1, col: cell.col + 1, head: cell.head + 1 }),
    lines: [
      `b_{${cell.row + 1},${cell.col + 1}} = -m_{${cell.head + 1}}\\,\\lvert i + (T_k - T_q) - j \\rvert`,
      `= -${num(head.slope)} \\cdot ${distance}`,
      `= ${num(at(head.bias, cell.batch, cell.row, cell.col))}`,
    ],
    note: t(ctx.lang, 'explain.alibi-note'),
    sources: [],
  };
}

/** The pair (c, partner) that column c of a width-d row belongs to, and its index p. */
export function ropePair(c, d, interleaved) {
  if (interleaved) return { p: Math.floor(c / 2), partner: c ^ 1, first: c % 2 === 0 };
  const half = d / 2;
  return { p: c % half, partner: c < half ? c + half : c - half, first: c < half };
}

/** Entry (row, col) of rotated q or k: its pair, angle θ = row · base^(-2p/d), the rotation. */
export function explainRotation(letter, ctx, cell) {
  const { state, result } = ctx;
  const head = result.heads[cell.head];
  const before = head.projected[letter];
  const d = before.shape.at(-1);
  const { p, partner, first } = ropePair(cell.col, d, state.rope === 'interleaved');
  const theta = cell.row * state.ropeBase ** ((-2 * p) / d);
  const x = at(before, cell.batch, cell.row, cell.col);
  const y = at(before, cell.batch, cell.row, partner);
  const sign = first ? '-' : '+';
  const rotated = at(head[letter], cell.batch, cell.row, cell.col);
  return {
    heading: t(ctx.lang, 'explain.rotation', {
      letter,
      row: cell.row + 1,
      col: cell.col + 1,
      pair: p + 1,
      a: Math.min(cell.col, partner) + 1,
      b: Math.max(cell.col, partner) + 1,
      theta: num(theta),
    }),
    lines: [
      `\\theta = i \\cdot \\text{base}^{-2p/d} = ${cell.row} \\cdot ${num(state.ropeBase)}^{-${2 * p}/${d}} = ${num(theta)}`,
      `${letter}'_{${cell.row + 1},${cell.col + 1}} = ${num(x)} \\cos\\theta ${sign} ${num(y)} \\sin\\theta`,
      `= ${num(rotated)}`,
    ],
    note: t(ctx.lang, 'explain.rotation-note'),
    sources: [{ stage: letter, head: cell.head, batch: cell.batch, row: cell.row }],
  };
}
