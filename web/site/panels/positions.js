// Positions (issue 12): the sliding window [left, right] (-1: open on that side), ALiBi's biases
// (off, the paper's slopes, or the slopes a link gave) and rotary positions (off, rotating halves as Llama does, or
// adjacent pairs as GPT-J does) with their base; and grouped heads: how many K, V heads the
// query heads share (a divisor of H: 1 is multi-query, H is plain multi-head).
import { h } from '../../figures/dom.js';
import { fieldset, segmented, stepper } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';

function mount(container, { store }) {
  const side = (k, label) => stepper(label, LIMITS.window, (n) => store.update((s) => {
    const window = [...s.window];
    window[k] = n;
    return { ...s, window };
  }), { hint: '−1: no limit' });
  const left = side(0, 'Window left');
  const right = side(1, 'Window right');
  // A third choice only while the state holds its own slopes (from a link or a figure's data), so
  // the control never shows off or paper for them; picking off or paper replaces them.
  const alibi = segmented('ALiBi', [
    ['off', 'off'],
    ['paper', 'paper slopes', 'ALiBi: −m_h |i + Tk − Tq − j| added to the scaled scores, m_h = 2^(−8h/H)'],
    ['custom', 'custom (from the link)', 'ALiBi with one slope per head given in the link'],
  ], (value) => value !== 'custom' && store.update({ alibi: value }), { label: 'ALiBi' });
  const customAlibi = alibi.node.querySelector('[data-value="custom"]');
  const rope = segmented('RoPE', [['off', 'off'], ['halves', 'halves', 'pairs (c, c + d/2): Hugging Face Llama'], ['interleaved', 'interleaved', 'pairs (2c, 2c + 1): GPT-J']], (value) => store.update({ rope: value }), { label: 'Rotary positions' });
  const base = h('input', { type: 'number', min: LIMITS.ropeBase[0], max: LIMITS.ropeBase[1], step: 'any', class: 'len-input', 'aria-label': 'RoPE base' });
  base.addEventListener('change', () => {
    const value = Number(base.value);
    if (Number.isFinite(value) && value > 0) store.update({ ropeBase: value });
  });
  const ropeHint = h('p', { class: 'hint-line' });
  const kvHeads = h('select', { 'aria-label': 'KV heads', onchange: () => store.update({ kvHeads: Number(kvHeads.value) }) },
    Array.from({ length: LIMITS.heads[1] }, (_, k) => h('option', { value: k + 1 }, String(k + 1))));
  const kvField = h('div', { class: 'field' }, h('label', { class: 'field-label' }, 'KV heads (shared K, V)', kvHeads));
  container.append(fieldset('Positions',
    left.node,
    right.node,
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'ALiBi'), alibi.node),
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'RoPE'), rope.node),
    h('div', { class: 'field' }, h('label', { class: 'field-label' }, 'RoPE base', base)),
    ropeHint,
    kvField));
  return {
    update(state) {
      left.set(state.window[0]);
      right.set(state.window[1]);
      const custom = Array.isArray(state.alibi);
      customAlibi.hidden = !custom;
      customAlibi.title = custom ? `ALiBi with the slopes given in the link: m = ${state.alibi.join(', ')}` : '';
      alibi.set(custom ? 'custom' : state.alibi);
      rope.set(state.rope);
      if (document.activeElement !== base) base.value = String(state.ropeBase);
      kvField.hidden = state.source !== 'self';
      for (const option of kvHeads.options) option.disabled = state.heads % Number(option.value) !== 0;
      kvHeads.value = String(state.kvHeads);
      ropeHint.textContent = state.source === 'self' ? 'RoPE needs an even query width.' : 'RoPE applies to states made from X.';
    },
  };
}

export const positionsPanel = { id: 'positions', slot: 'controls', order: 35, mount };
