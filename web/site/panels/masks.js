// Masks: causal (none / top-left / bottom-right), valid lengths (off, per batch, per query row),
// what a fully masked row becomes (zero row or d2l's fill), and the cells masked by hand.
import { h } from '../../figures/dom.js';
import { fieldset, segmented } from './widgets.js';
import { sizesOf } from '../../model/state/model.js';

function lensEditor(state, store) {
  const { B, Tq, Tk } = sizesOf(state);
  const lens = state.validLens;
  if (!lens) return null;
  const input = (value, label, set) => {
    const node = h('input', { type: 'number', min: 0, max: Tk, step: 1, value, class: 'len-input', 'aria-label': label });
    node.addEventListener('change', () => set(Math.max(0, Math.min(Tk, Math.round(Number(node.value) || 0)))));
    return node;
  };
  const setLen = (b, i, n) => store.update((s) => {
    const next = structuredClone(s.validLens);
    if (next.per === 'row') next.lens[b][i] = n;
    else next.lens[b] = n;
    return { ...s, validLens: next };
  });
  const rows = Array.from({ length: B }, (_, b) => h('div', { class: 'len-row' },
    h('span', { class: 'len-label' }, B > 1 ? `batch ${b + 1}` : 'lengths'),
    lens.per === 'row'
      ? Array.from({ length: Tq }, (_, i) => input(lens.lens[b][i], `valid length of batch ${b + 1}, query ${i + 1}`, (n) => setLen(b, i, n)))
      : input(lens.lens[b], `valid length of batch ${b + 1}`, (n) => setLen(b, 0, n))));
  return h('div', { class: 'len-grid' }, rows, h('p', { class: 'hint-line' }, `Keys j ≥ length are hidden (0 … ${Tk}).`));
}

function mount(container, { store }) {
  const causal = segmented('causal', [['none', 'none'], ['top-left', 'top-left', 'j ≤ i (PyTorch is_causal)'], ['bottom-right', 'bottom-right', 'j ≤ i + Tk − Tq (decoding with a cache)']], (value) => store.update({ causal: value }), { label: 'Causal mask' });
  const per = segmented('valid lengths', [['off', 'off'], ['batch', 'per batch'], ['row', 'per row']], (value) => store.update((s) => {
    const { B, Tq, Tk } = sizesOf(s);
    if (value === 'off') return { ...s, validLens: null };
    const current = s.validLens;
    const first = (b) => (current ? (current.per === 'row' ? current.lens[b][0] : current.lens[b]) : Tk);
    return { ...s, validLens: value === 'row'
      ? { per: 'row', lens: Array.from({ length: B }, (_, b) => Array.from({ length: Tq }, () => first(b))) }
      : { per: 'batch', lens: Array.from({ length: B }, (_, b) => first(b)) } };
  }), { label: 'Valid lengths' });
  const fill = segmented('empty rows', [['zero', 'zero row', 'PyTorch ≥ 2.5, ONNX: no visible key → weights 0, output 0'], ['d2l', 'd2l fill', 'd2l: masked scores become −10⁶, an empty row turns uniform']], (value) => store.update({ maskFill: value }), { label: 'Fully masked rows' });
  const lensSlot = h('div', {});
  const cellsLine = h('p', { class: 'hint-line' });
  const clear = h('button', { type: 'button', class: 'link-button', onclick: () => store.update({ maskedCells: [] }) }, 'clear');
  container.append(fieldset('Masks',
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Causal'), causal.node),
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Valid lengths'), per.node),
    lensSlot,
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Rows with no visible key'), fill.node),
    h('div', { class: 'field-head' }, cellsLine, clear)));
  let lensKey = '';
  return {
    update(state) {
      causal.set(state.causal);
      per.set(state.validLens?.per ?? 'off');
      fill.set(state.maskFill);
      const key = JSON.stringify([state.validLens, sizesOf(state)]);
      if (key !== lensKey && !lensSlot.contains(document.activeElement)) {
        lensKey = key;
        lensSlot.replaceChildren(lensEditor(state, store) ?? '');
      }
      const n = state.maskedCells.length;
      cellsLine.textContent = n ? `${n} score${n > 1 ? 's' : ''} masked by hand.` : 'Click a score to mask it by hand.';
      clear.hidden = n === 0;
    },
  };
}

export const masksPanel = { id: 'masks', slot: 'controls', order: 30, mount };
