// The import dialog: the file's tensors (name, shape, dtype), a role for the file (attention
// weights shown as they are; X with Wq/Wk/Wv; or Q/K/V), a tensor per slot, transposes for
// nn.Linear weights, the tokens; Apply checks the shapes (roles.js) and says what does not fit.
import { h } from '../../../figures/dom.js';
import { guessRoles, qkvRole, selfRole, weightsRole } from '../../../model/roles.js';

const ROLES = [
  ['weights', 'Attention weights', 'shown as they are, layer by layer and head by head (not recomputed)'],
  ['self', 'X, Wq, Wk, Wv', 'self-attention recomputed from the input and the projections'],
  ['qkv', 'Q, K, V', 'attention recomputed from given queries, keys and values'],
];
// Tokens are edited as one line of text: words separated by spaces, or a JSON list when a token
// holds a space (['New York', 'is', 'big'] shows as ["New York","is","big"]), so every list of
// strings survives the field unchanged.
const tokensText = (tokens) => (tokens.some((t) => t === '' || /\s/.test(t)) ? JSON.stringify(tokens) : tokens.join(' '));

/** The field's text -> the tokens (a JSON list or words), or null when it is empty. */
function readTokens(typed) {
  if (typed === '') return null;
  if (!typed.startsWith('[')) return typed.split(/\s+/);
  let list;
  try {
    list = JSON.parse(typed);
  } catch (error) {
    throw new TypeError(`tokens: not a valid JSON list (${error.message})`);
  }
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) throw new TypeError('tokens: a JSON list must hold strings only, like ["New York", "is", "big"]');
  return list;
}

const SLOTS = { weights: [['weights', 'Weights']], self: [['x', 'X'], ['wq', 'Wq'], ['wk', 'Wk'], ['wv', 'Wv']], qkv: [['q', 'Q'], ['k', 'K'], ['v', 'V']] };

/** -> { node, open(name, file) }; apply(choice) receives { role, attentions | patch, tokens, name }. */
export function importDialog(apply) {
  const body = h('div', { class: 'import-body' });
  const message = h('p', { class: 'import-message', role: 'alert', dataset: { role: 'import-message' } });
  const dialog = h('dialog', { class: 'import-dialog', 'aria-labelledby': 'import-title', dataset: { role: 'import-dialog' } });
  let current = null;

  function choose(role) {
    const { file, guess } = current;
    const names = Object.keys(file.tensors);
    const slots = SLOTS[role].map(([key, label]) => {
      const select = h('select', { dataset: { slot: key }, 'aria-label': label }, names.map((n) => h('option', { value: n, selected: n === guess.pick[key] }, n)));
      const transpose = key.startsWith('w') && role === 'self'
        ? h('label', { class: 'import-transpose' }, h('input', { type: 'checkbox', dataset: { transpose: key }, checked: Boolean(guess.transpose[key]) }), ' transpose (nn.Linear is (out, in))')
        : null;
      return h('p', { class: 'import-slot' }, h('label', {}, `${label} `, select), transpose);
    });
    body.querySelector('.import-slots').replaceChildren(...slots);
    message.textContent = '';
  }

  function read() {
    const role = dialog.querySelector('input[name="import-role"]:checked').value;
    const tensor = (key) => current.file.tensors[dialog.querySelector(`select[data-slot="${key}"]`).value];
    const ticked = (key) => Boolean(dialog.querySelector(`input[data-transpose="${key}"]`)?.checked);
    const tokens = readTokens(dialog.querySelector('[data-field="tokens"]').value.trim());
    if (role === 'weights') {
      const attentions = weightsRole(tensor('weights'));
      const T = attentions.shape[2];
      if (tokens && tokens.length !== T) throw new RangeError(`tokens: ${tokens.length} given, the weights have T = ${T} queries`);
      return { role, attentions, tokens, name: current.name };
    }
    const patch = role === 'self'
      ? selfRole({ x: tensor('x'), wq: tensor('wq'), wk: tensor('wk'), wv: tensor('wv') }, { wq: ticked('wq'), wk: ticked('wk'), wv: ticked('wv') })
      : qkvRole({ q: tensor('q'), k: tensor('k'), v: tensor('v') });
    const T = role === 'self' ? patch.x.length : patch.q[0].length;
    if (tokens && tokens.length !== T) throw new RangeError(`tokens: ${tokens.length} given, ${role === 'self' ? 'X' : 'Q'} has ${T} rows`);
    return { role, patch, tokens, name: current.name };
  }

  const applyButton = h('button', { type: 'button', class: 'button-primary', dataset: { action: 'apply-import' }, onclick: () => {
    try {
      apply(read());
      dialog.close();
    } catch (error) {
      message.textContent = error.message;
    }
  } }, 'Apply');

  function open(name, file) {
    const guess = guessRoles(file.tensors);
    current = { name, file, guess };
    const rows = Object.entries(file.tensors).map(([n, t]) => h('tr', { dataset: { tensor: n } }, h('td', {}, n), h('td', {}, `(${t.shape.join(', ')})`), h('td', {}, t.dtype)));
    const roles = ROLES.map(([value, label, hint]) => h('label', { class: 'import-role' },
      h('input', { type: 'radio', name: 'import-role', value, checked: value === guess.role, onchange: () => choose(value) }), ` ${label}`, h('small', {}, ` ${hint}`)));
    body.replaceChildren(
      h('table', { class: 'import-tensors' }, h('thead', {}, h('tr', {}, h('th', {}, 'tensor'), h('th', {}, 'shape'), h('th', {}, 'dtype'))), h('tbody', {}, rows)),
      h('fieldset', {}, h('legend', {}, 'The file holds'), roles),
      h('div', { class: 'import-slots' }),
      h('p', {}, h('label', {}, 'Tokens ', h('input', { type: 'text', dataset: { field: 'tokens' }, value: tokensText(file.tokens ?? []), placeholder: 'one per row, separated by spaces, or a JSON list', size: 40 }))),
    );
    choose(guess.role);
    dialog.querySelector('#import-title').textContent = `Open ${name}`;
    dialog.showModal();
  }

  dialog.append(
    h('h2', { id: 'import-title' }, 'Open a file'),
    body,
    message,
    h('p', { class: 'import-actions' }, applyButton, ' ', h('button', { type: 'button', class: 'icon-button', onclick: () => dialog.close() }, 'Cancel')),
  );
  return { node: dialog, open, showError(name, error) {
    current = null;
    body.replaceChildren();
    dialog.querySelector('#import-title').textContent = `Open ${name}`;
    message.textContent = error.message;
    if (!dialog.open) dialog.showModal();
  } };
}
