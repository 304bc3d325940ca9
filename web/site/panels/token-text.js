// The example's tokens as a line of text: a typed sentence becomes the token labels (splitTokens:
// words at spaces, Chinese or Japanese typed without spaces split into words) and its number of
// tokens the example's size. A count outside the limits, or a broken JSON list, is said under the
// field and changes nothing.
import { h } from '../../figures/dom.js';
import { LIMITS } from '../../model/state/model.js';
import { setTokens } from '../../model/state/sizes.js';
import { readTokensText, tokensText } from '../../model/state/tokens.js';

// The field's name, by source and token field.
const LABELS = {
  self: { tokens: 'site.token-text.tokens' },
  qkv: { tokens: 'site.token-text.queries', keyTokens: 'site.token-text.keyTokens' },
};
// The model's error ids -> the panel's keys.
const ERRORS = { 'tokens-json': 'site.tokens-json', 'tokens-strings': 'site.tokens-strings' };

let counter = 0;

/** -> { node, set(state) } for the state's `field` ('tokens' or 'keyTokens'). */
export function tokenText(source, field, { store, t }) {
  const id = `token-text-${(counter += 1)}`;
  const input = h('input', {
    id,
    type: 'text',
    class: 'text-input',
    dataset: { field: `token-text-${field}` },
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': `${id}-hint ${id}-error`,
  });
  const error = h('p', { id: `${id}-error`, class: 'field-error', role: 'alert', hidden: true });
  const say = (text) => {
    error.textContent = text;
    error.hidden = text === '';
    input.setAttribute('aria-invalid', String(text !== ''));
  };
  input.addEventListener('change', () => {
    let labels;
    try {
      labels = readTokensText(input.value, (key, params) => t(ERRORS[key], params)) ?? [];
    } catch (e) {
      say(e.message);
      return;
    }
    const [min, max] = LIMITS.tokens;
    if (labels.length < min || labels.length > max) {
      say(t('site.token-count', { count: labels.length, min, max }));
      return;
    }
    say('');
    store.update((s) => setTokens(s, field, labels));
    input.value = tokensText(labels); // the tokens as split, so the reader sees the words
  });
  const node = h(
    'div',
    { class: 'field token-text-field' },
    h('label', { for: id, class: 'field-label' }, t(LABELS[source][field])),
    input,
    h('p', { id: `${id}-hint`, class: 'hint-line' }, t('site.token-text-hint')),
    error,
  );
  return {
    node,
    set(state) {
      if (document.activeElement !== input) input.value = tokensText(state[field]);
    },
  };
}
