// Form widgets that update in place: each returns { node, set(value) } so a panel builds its
// controls once and only syncs their values afterwards (rebuilding would break a slider drag
// or the caret of a field being typed in).
import { h } from '../../figures/dom.js';

let counter = 0;
const nextId = (prefix) => `${prefix}-${(counter += 1)}`;

/** A row of toggle buttons (a radio group): options [[value, label, title?]]. */
export function segmented(name, options, onChange, { label } = {}) {
  const buttons = options.map(([value, text, title]) =>
    h('button', { type: 'button', class: 'seg', role: 'radio', title, dataset: { value: String(value) }, onclick: () => onChange(value) }, text),
  );
  const node = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': label ?? name }, buttons);
  node.addEventListener('keydown', (event) => {
    // The arrows cycle through the shown buttons only (a panel may hide a choice for now).
    const shown = buttons.filter((b) => !b.hidden);
    const k = shown.indexOf(document.activeElement);
    if (k < 0 || !['ArrowLeft', 'ArrowRight'].includes(event.key)) return;
    event.preventDefault();
    const next = shown[(k + (event.key === 'ArrowRight' ? 1 : shown.length - 1)) % shown.length];
    next.focus();
    next.click();
  });
  return {
    node,
    set(value) {
      const current = buttons.find((b) => b.dataset.value === String(value));
      for (const b of buttons) {
        b.setAttribute('aria-checked', String(b === current));
        // With none checked the first button takes the group's Tab stop, so the keyboard still reaches it.
        b.tabIndex = b === (current ?? buttons[0]) ? 0 : -1;
      }
    },
  };
}

/** An integer stepper: − [n] +, within [min, max]; names: { fewer, more } of its buttons ('fewer Tokens'). */
export function stepper(label, [min, max], onChange, { hint, names = { fewer: `fewer ${label}`, more: `more ${label}` } } = {}) {
  const id = nextId('stepper');
  const input = h('input', { id, type: 'number', min, max, step: 1, inputmode: 'numeric', class: 'stepper-input' });
  const clamp = (n) => Math.min(max, Math.max(min, n));
  const commit = (n) => Number.isFinite(n) && onChange(clamp(Math.round(n)));
  input.addEventListener('change', () => commit(Number(input.value)));
  const minus = h('button', { type: 'button', class: 'step', 'aria-label': names.fewer, onclick: () => commit(Number(input.value) - 1) }, '−');
  const plus = h('button', { type: 'button', class: 'step', 'aria-label': names.more, onclick: () => commit(Number(input.value) + 1) }, '+');
  const node = h(
    'div',
    { class: 'field stepper-field' },
    h('label', { for: id, class: 'field-label' }, label, hint ? h('span', { class: 'hint' }, hint) : null),
    h('div', { class: 'stepper' }, minus, input, plus),
  );
  return {
    node,
    set(n) {
      if (document.activeElement !== input) input.value = String(n);
      minus.disabled = n <= min;
      plus.disabled = n >= max;
    },
  };
}

/** A slider with its value printed beside it; map converts slider position <-> value. */
export function slider(label, { min, max, step, toValue = (x) => x, fromValue = (x) => x, format = String }, onChange) {
  const id = nextId('slider');
  const input = h('input', { id, type: 'range', min, max, step });
  const out = h('output', { for: id, class: 'slider-value' });
  input.addEventListener('input', () => onChange(toValue(Number(input.value))));
  const node = h('div', { class: 'field slider-field' }, h('div', { class: 'field-head' }, h('label', { for: id, class: 'field-label' }, label), out), input);
  return {
    node,
    set(value) {
      if (document.activeElement !== input) input.value = String(fromValue(value));
      out.textContent = format(value);
    },
  };
}

/** A labelled <select>: options [[value, label]]. */
export function select(label, options, onChange) {
  const id = nextId('select');
  const input = h(
    'select',
    { id, onchange: () => onChange(input.value) },
    options.map(([value, text]) => h('option', { value }, text)),
  );
  const node = h('div', { class: 'field' }, h('label', { for: id, class: 'field-label' }, label), input);
  return {
    node,
    set: (value) => {
      input.value = value;
    },
  };
}

/** A titled group of controls. */
export function fieldset(title, ...children) {
  return h('section', { class: 'control-group' }, h('h2', { class: 'control-title' }, title), ...children);
}
