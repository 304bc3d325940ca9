// Positions (issue 12): the sliding window [left, right] (-1: open on that side), ALiBi's biases
// (off, the paper's slopes, or the slopes a link gave) and rotary positions (off, rotating halves as Llama does, or
// adjacent pairs as GPT-J does) with their base; and grouped heads: how many K, V heads the
// query heads share (a divisor of H: 1 is multi-query, H is plain multi-head).
import { h } from '../../figures/dom.js';
import { fieldset, segmented, stepper } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';

function mount(container, { store, t }) {
  const side = (k, label) =>
    stepper(
      label,
      LIMITS.window,
      (n) =>
        store.update((s) => {
          const window = [...s.window];
          window[k] = n;
          return { ...s, window };
        }),
      { hint: t('site.window-hint'), names: { fewer: t('site.fewer', { label }), more: t('site.more', { label }) } },
    );
  const left = side(0, t('site.window-left'));
  const right = side(1, t('site.window-right'));
  // A third choice only while the state holds its own slopes (from a link or a figure's data), so
  // the control never shows off or paper for them; picking off or paper replaces them.
  const alibi = segmented(
    'ALiBi',
    [
      ['off', t('site.alibi.off')],
      ['paper', t('site.alibi.paper'), t('site.alibi.paper-title')],
      ['custom', t('site.alibi.custom'), t('site.alibi.custom-title')],
    ],
    (value) => value !== 'custom' && store.update({ alibi: value }),
    { label: 'ALiBi' },
  );
  const customAlibi = alibi.node.querySelector('[data-value="custom"]');
  const rope = segmented(
    'RoPE',
    [
      ['off', t('site.rope.off')],
      ['halves', t('site.rope.halves'), t('site.rope.halves-title')],
      ['interleaved', t('site.rope.interleaved'), t('site.rope.interleaved-title')],
    ],
    (value) => store.update({ rope: value }),
    { label: t('site.rope-label') },
  );
  const base = h('input', {
    type: 'number',
    min: LIMITS.ropeBase[0],
    max: LIMITS.ropeBase[1],
    step: 'any',
    class: 'len-input base-input',
    'aria-label': t('site.rope-base'),
  });
  base.addEventListener('change', () => {
    const value = Number(base.value);
    if (Number.isFinite(value) && value > 0) store.update({ ropeBase: value });
  });
  const ropeHint = h('p', { class: 'hint-line' });
  const kvHeads = h(
    'select',
    { 'aria-label': t('site.kv-heads'), onchange: () => store.update({ kvHeads: Number(kvHeads.value) }) },
    Array.from({ length: LIMITS.heads[1] }, (_, k) => h('option', { value: k + 1 }, String(k + 1))),
  );
  const kvField = h('div', { class: 'field' }, h('label', { class: 'field-label' }, t('site.kv-heads-field'), kvHeads));
  container.append(
    fieldset(
      t('site.positions'),
      left.node,
      right.node,
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'ALiBi'), alibi.node),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'RoPE'), rope.node),
      h('div', { class: 'field' }, h('label', { class: 'field-label' }, t('site.rope-base'), base)),
      ropeHint,
      kvField,
    ),
  );
  return {
    update(state) {
      left.set(state.window[0]);
      right.set(state.window[1]);
      const custom = Array.isArray(state.alibi);
      customAlibi.hidden = !custom;
      customAlibi.title = custom ? t('site.alibi-slopes', { slopes: state.alibi.join(', ') }) : '';
      alibi.set(custom ? 'custom' : state.alibi);
      rope.set(state.rope);
      if (document.activeElement !== base) base.value = String(state.ropeBase);
      kvField.hidden = state.source !== 'self';
      for (const option of kvHeads.options) option.disabled = state.heads % Number(option.value) !== 0;
      kvHeads.value = String(state.kvHeads);
      ropeHint.textContent = t(state.source === 'self' ? 'site.rope-even' : 'site.rope-self');
    },
  };
}

export const positionsPanel = { id: 'positions', slot: 'controls', order: 35, mount };
