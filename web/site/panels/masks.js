// Masks: causal (none / top-left / bottom-right), valid lengths (off, per batch, per query row),
// what a fully masked row becomes (zero row or d2l's fill), and the cells masked by hand.
import { h } from '../../figures/dom.js';
import { fieldset, segmented } from './widgets.js';
import { sizesOf } from '../../model/state/model.js';

function lensEditor(state, store, t) {
  const { B, Tq, Tk } = sizesOf(state);
  const lens = state.validLens;
  if (!lens) return null;
  const input = (value, label, set) => {
    const node = h('input', { type: 'number', min: 0, max: Tk, step: 1, value, class: 'len-input', 'aria-label': label });
    node.addEventListener('change', () => set(Math.max(0, Math.min(Tk, Math.round(Number(node.value) || 0)))));
    return node;
  };
  const setLen = (b, i, n) =>
    store.update((s) => {
      const next = structuredClone(s.validLens);
      if (next.per === 'row') next.lens[b][i] = n;
      else next.lens[b] = n;
      return { ...s, validLens: next };
    });
  const rows = Array.from({ length: B }, (_, b) =>
    h(
      'div',
      { class: 'len-row' },
      h('span', { class: 'len-label' }, B > 1 ? t('site.lens-batch', { batch: b }) : t('site.lens-lengths')),
      lens.per === 'row'
        ? Array.from({ length: Tq }, (_, i) => input(lens.lens[b][i], t('site.lens-row-label', { batch: b, query: i }), (n) => setLen(b, i, n)))
        : input(lens.lens[b], t('site.lens-batch-label', { batch: b }), (n) => setLen(b, 0, n)),
    ),
  );
  return h('div', { class: 'len-grid' }, rows, h('p', { class: 'hint-line' }, t('site.lens-hint', { max: Tk })));
}

function mount(container, { store, t }) {
  const causal = segmented(
    'causal',
    [
      ['none', t('site.causal.none')],
      ['top-left', t('site.causal.top-left'), t('site.causal.top-left-title')],
      ['bottom-right', t('site.causal.bottom-right'), t('site.causal.bottom-right-title')],
    ],
    (value) => store.update({ causal: value }),
    { label: t('site.causal-label') },
  );
  const per = segmented(
    'valid lengths',
    ['off', 'batch', 'row'].map((v) => [v, t(`site.lens.${v}`)]),
    (value) =>
      store.update((s) => {
        const { B, Tq, Tk } = sizesOf(s);
        if (value === 'off') return { ...s, validLens: null };
        const current = s.validLens;
        const first = (b) => (current ? (current.per === 'row' ? current.lens[b][0] : current.lens[b]) : Tk);
        return {
          ...s,
          validLens:
            value === 'row'
              ? { per: 'row', lens: Array.from({ length: B }, (_, b) => Array.from({ length: Tq }, () => first(b))) }
              : { per: 'batch', lens: Array.from({ length: B }, (_, b) => first(b)) },
        };
      }),
    { label: t('site.valid-lengths') },
  );
  const fill = segmented(
    'empty rows',
    ['zero', 'd2l'].map((v) => [v, t(`site.fill.${v}`), t(`site.fill.${v}-title`)]),
    (value) => store.update({ maskFill: value }),
    { label: t('site.fill-label') },
  );
  const lensSlot = h('div', {});
  const cellsLine = h('p', { class: 'hint-line' });
  const clear = h('button', { type: 'button', class: 'link-button', onclick: () => store.update({ maskedCells: [] }) }, t('site.clear'));
  container.append(
    fieldset(
      t('site.masks'),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('site.causal')), causal.node),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('site.valid-lengths')), per.node),
      lensSlot,
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('site.fill')), fill.node),
      h('div', { class: 'field-head' }, cellsLine, clear),
    ),
  );
  let lensKey = '';
  return {
    update(state) {
      causal.set(state.causal);
      per.set(state.validLens?.per ?? 'off');
      fill.set(state.maskFill);
      const key = JSON.stringify([state.validLens, sizesOf(state)]);
      if (key !== lensKey && !lensSlot.contains(document.activeElement)) {
        lensKey = key;
        lensSlot.replaceChildren(lensEditor(state, store, t) ?? '');
      }
      const n = state.maskedCells.length;
      cellsLine.textContent = n === 0 ? t('site.mask-hint') : n === 1 ? t('site.masked-by-hand-one') : t('site.masked-by-hand', { n });
      clear.hidden = n === 0;
    },
  };
}

export const masksPanel = { id: 'masks', slot: 'controls', order: 30, mount };
