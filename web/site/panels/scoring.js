// Scoring function, additive's hidden width, scale and temperature.
import { h } from '../../figures/dom.js';
import { fieldset, segmented, slider, stepper } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';

// The scorings; their names and formulas in the catalog ('site.scoring.<id>', '-title').
const SCORINGS = ['dot', 'scaled-dot', 'general', 'additive', 'concat'];

// The temperature slider is logarithmic: position p in [-1, 1] is τ = 10^p.
const temperature = {
  min: -1,
  max: 1,
  step: 0.01,
  toValue: (p) => Number((10 ** p).toPrecision(3)),
  fromValue: (t) => Math.log10(t),
  format: (t) => `τ = ${t.toFixed(2)}`,
};

function mount(container, { store, t }) {
  const options = SCORINGS.map((id) => [id, t(`site.scoring.${id}`), t(`site.scoring.${id}-title`)]);
  const scoring = segmented('scoring', options, (value) => store.update((s) => ({ ...s, scoring: value, compare: s.compare.filter((c) => c !== value) })), {
    label: t('site.scoring-label'),
  });
  const hiddenLabel = t('site.hidden-width');
  const hidden = stepper(hiddenLabel, LIMITS.hidden, (n) => store.update({ hidden: n }), {
    hint: 'h',
    names: { fewer: t('site.fewer', { label: hiddenLabel }), more: t('site.more', { label: hiddenLabel }) },
  });
  const temp = slider(t('site.temperature'), temperature, (tau) => store.update({ temperature: tau }));
  const scaleInput = h('input', {
    type: 'text',
    inputmode: 'decimal',
    class: 'text-input',
    placeholder: t('site.scale-default'),
    id: 'scale-input',
    'aria-describedby': 'scale-hint',
  });
  scaleInput.addEventListener('change', () => {
    const text = scaleInput.value.trim().replace('\u2212', '-');
    const value = Number(text);
    store.update({ scale: text === '' ? null : Number.isFinite(value) && value > 0 ? value : store.get().scale });
  });
  const scaleHint = h('p', { class: 'hint-line', id: 'scale-hint' });
  const compareButtons = options.map(([value, text]) =>
    h(
      'button',
      {
        type: 'button',
        class: 'chip',
        dataset: { value },
        onclick: () => store.update((s) => ({ ...s, compare: s.compare.includes(value) ? s.compare.filter((c) => c !== value) : [...s.compare, value] })),
      },
      text,
    ),
  );
  const compare = h(
    'div',
    { class: 'field' },
    h('span', { class: 'field-label' }, t('site.compare')),
    h('div', { class: 'chips', role: 'group', 'aria-label': t('site.compare-label') }, compareButtons),
  );
  const reset = h(
    'button',
    { type: 'button', class: 'link-button', 'aria-label': t('site.reset-scale'), onclick: () => store.update({ temperature: 1, scale: null }) },
    t('site.reset'),
  );
  container.append(
    fieldset(
      t('site.scoring'),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('site.scoring-function')), scoring.node),
      compare,
      hidden.node,
      h(
        'div',
        { class: 'field' },
        h('div', { class: 'field-head' }, h('label', { for: 'scale-input', class: 'field-label' }, t('site.scale')), reset),
        scaleInput,
        scaleHint,
      ),
      temp.node,
    ),
  );
  return {
    update(state) {
      scoring.set(state.scoring);
      const usesAdditive = state.scoring === 'additive' || state.compare.includes('additive');
      hidden.node.hidden = !usesAdditive;
      hidden.set(state.hidden);
      temp.set(state.temperature);
      if (document.activeElement !== scaleInput) scaleInput.value = state.scale === null ? '' : String(state.scale);
      scaleHint.textContent = t('site.scale-hint', { empty: state.scoring === 'scaled-dot' ? '1/√d' : '1' });
      for (const button of compareButtons) {
        const value = button.dataset.value;
        button.hidden = value === state.scoring;
        button.setAttribute('aria-pressed', String(state.compare.includes(value)));
      }
    },
  };
}

export const scoringPanel = { id: 'scoring', slot: 'controls', order: 20, mount };
