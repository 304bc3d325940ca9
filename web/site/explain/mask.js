// Why a score is masked (or not): the constraints of the state that hide key j from query i.
// Visibility itself comes from the core (compute/index.js); this only names the reasons.
import { t } from '../../i18n/index.js';
import { at } from '../../model/compute/tensors.js';
import { D2L_FILL } from '../../model/state/model.js';
import { ij, num } from './tex.js';

/** The reasons key j is hidden from query i in batch b ([] when visible), in `lang` (default en). */
export function maskReasons(state, sizes, b, i, j, lang = 'en') {
  const reasons = [];
  const say = (key, params) => reasons.push(t(lang, `explain.reason.${key}`, { key: j + 1, query: i + 1, ...params }));
  if (state.causal === 'top-left' && j > i) say('top-left');
  if (state.causal === 'bottom-right' && j > i + sizes.Tk - sizes.Tq) say('bottom-right');
  const [left, right] = state.window;
  const diagonal = i + sizes.Tk - sizes.Tq;
  if (left !== -1 && j < diagonal - left) say('window-left', { left, right });
  if (right !== -1 && j > diagonal + right) say('window-right', { left, right });
  const lens = state.validLens;
  if (lens) {
    const len = lens.per === 'row' ? lens.lens[b][i] : lens.lens[b];
    if (j >= len) say('valid-length', { len, from: len + 1 });
  }
  if (state.maskedCells.some(([mb, mi, mj]) => mb === b && mi === i && mj === j)) say('by-hand');
  return reasons;
}

export function explainMasked(ctx, cell) {
  const { state, result } = ctx;
  const run = result.heads[cell.head].runs[cell.run];
  const value = at(run.masked, cell.batch, cell.row, cell.col);
  const reasons = maskReasons(state, result.sizes, cell.batch, cell.row, cell.col, ctx.lang);
  const z = `z_{${ij(cell.row, cell.col)}}`;
  const head = result.heads[cell.head];
  // With ALiBi the visible score also gets the head's bias b_ij (the alibi stage).
  const bias = head.bias ? ` + (${num(at(head.bias, cell.batch, cell.row, cell.col))})` : '';
  const lines =
    reasons.length === 0
      ? [
          bias
            ? `${z} = \\tilde s_{${ij(cell.row, cell.col)}} + b_{${ij(cell.row, cell.col)}} + 0 = ${num(at(run.scaled, cell.batch, cell.row, cell.col))}${bias} = ${num(value)}`
            : `${z} = \\tilde s_{${ij(cell.row, cell.col)}} + 0 = ${num(value)}`,
        ]
      : [
          `${z} = \\tilde s_{${ij(cell.row, cell.col)}} + (-\\infty) = ${state.maskFill === 'd2l' ? `${num(D2L_FILL)}\\ \\text{(${t(ctx.lang, 'site.fill.d2l')})}` : '-\\infty'}`,
        ];
  return {
    heading: t(ctx.lang, reasons.length ? 'explain.masked' : bias ? 'explain.visible-alibi' : 'explain.visible'),
    lines,
    note: reasons.length ? reasons.join(t(ctx.lang, 'explain.reason-separator')) : t(ctx.lang, 'explain.mask-by-hand'),
    sources: [{ stage: 'scaled', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row, col: cell.col }],
  };
}
