// Scoring function, additive's hidden width, scale and temperature.
import { h } from '../../figures/dom.js';
import { fieldset, segmented, slider, stepper } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';

const SCORING_OPTIONS = [
  ['dot', 'dot', 'q · k'],
  ['scaled-dot', 'scaled', 'q · k / √d (the Transformer’s)'],
  ['general', 'general', 'qᵀ W k (bilinear, Luong)'],
  ['additive', 'additive', 'w_vᵀ tanh(q W_q + k W_k) (Bahdanau)'],
  ['concat', 'concat', 'wᵀ [q; k]'],
];

// The temperature slider is logarithmic: position p in [-1, 1] is τ = 10^p.
const temperature = {
  min: -1, max: 1, step: 0.01,
  toValue: (p) => Number((10 ** p).toPrecision(3)),
  fromValue: (t) => Math.log10(t),
  format: (t) => `τ = ${t.toFixed(2)}`,
};

function mount(container, { store }) {
  const scoring = segmented('scoring', SCORING_OPTIONS, (value) => store.update((s) => ({ ...s, scoring: value, compare: s.compare.filter((c) => c !== value) })), { label: 'Scoring function' });
  const hidden = stepper('Additive hidden width', LIMITS.hidden, (n) => store.update({ hidden: n }), { hint: 'h' });
  const temp = slider('Temperature', temperature, (t) => store.update({ temperature: t }));
  const scaleInput = h('input', { type: 'text', inputmode: 'decimal', class: 'text-input', placeholder: 'default', id: 'scale-input', 'aria-describedby': 'scale-hint' });
  scaleInput.addEventListener('change', () => {
    const text = scaleInput.value.trim().replace('\u2212', '-');
    const value = Number(text);
    store.update({ scale: text === '' ? null : Number.isFinite(value) && value > 0 ? value : store.get().scale });
  });
  const scaleHint = h('p', { class: 'hint-line', id: 'scale-hint' });
  const compareButtons = SCORING_OPTIONS.map(([value, text]) => h('button', {
    type: 'button', class: 'chip', dataset: { value },
    onclick: () => store.update((s) => ({ ...s, compare: s.compare.includes(value) ? s.compare.filter((c) => c !== value) : [...s.compare, value] })),
  }, text));
  const compare = h('div', { class: 'field' },
    h('span', { class: 'field-label' }, 'Compare side by side'),
    h('div', { class: 'chips', role: 'group', 'aria-label': 'Scorings computed side by side' }, compareButtons));
  const reset = h('button', { type: 'button', class: 'link-button', 'aria-label': 'Reset the scale and the temperature', onclick: () => store.update({ temperature: 1, scale: null }) }, 'reset');
  container.append(fieldset('Scoring',
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Function a(q, k)'), scoring.node),
    compare,
    hidden.node,
    h('div', { class: 'field' },
      h('div', { class: 'field-head' }, h('label', { for: 'scale-input', class: 'field-label' }, 'Scale s'), reset),
      scaleInput, scaleHint),
    temp.node));
  return {
    update(state) {
      scoring.set(state.scoring);
      const usesAdditive = state.scoring === 'additive' || state.compare.includes('additive');
      hidden.node.hidden = !usesAdditive;
      hidden.set(state.hidden);
      temp.set(state.temperature);
      if (document.activeElement !== scaleInput) scaleInput.value = state.scale === null ? '' : String(state.scale);
      scaleHint.textContent = `Scores are multiplied by s / τ. Empty: ${state.scoring === 'scaled-dot' ? '1/√d' : '1'}.`;
      for (const button of compareButtons) {
        const value = button.dataset.value;
        button.hidden = value === state.scoring;
        button.setAttribute('aria-pressed', String(state.compare.includes(value)));
      }
    },
  };
}

export const scoringPanel = { id: 'scoring', slot: 'controls', order: 20, mount };
