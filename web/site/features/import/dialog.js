// The import dialog: the file's tensors (name, shape, dtype), a role for the file (attention
// weights shown as they are; X with Wq/Wk/Wv; or Q/K/V), a tensor per slot, transposes for
// nn.Linear weights, the tokens; Apply checks the shapes (roles.js) and says what does not fit.
import { h } from '../../../figures/dom.js';
import { guessRoles, qkvRole, selfRole, weightsRole } from '../../../model/roles.js';
import { langOf } from '../../../figures/interact/messages.js';
import { t } from '../../../i18n/index.js';
import { errorText } from '../../../i18n/figure-text.js';
import { readTokensText, tokensText } from '../../../model/state/tokens.js';

const ROLES = ['weights', 'self', 'qkv'];

// Each slot's label: a matrix's symbol, or (null) a word from the catalog.
const SLOTS = {
  weights: [['weights', null]],
  self: [
    ['x', 'X'],
    ['wq', 'Wq'],
    ['wk', 'Wk'],
    ['wv', 'Wv'],
  ],
  qkv: [
    ['q', 'Q'],
    ['k', 'K'],
    ['v', 'V'],
  ],
};

/**
 * -> { node, open(name, file), showError(name, error) }. apply(choice) receives { role, attentions |
 * patch, tokens, name } after the dialog has closed (so it can move the focus to what it drew);
 * chooseFile() opens the file chooser (the main action when a file cannot be read).
 */
export function importDialog(apply, chooseFile) {
  const say = (id, params) => t(langOf(dialog), `import.${id}`, params);
  const title = h('h2', { id: 'import-title', class: 'import-title' });
  const body = h('div', { class: 'import-body' });
  const message = h('p', { class: 'import-message', role: 'alert', dataset: { role: 'import-message' } });
  const dialog = h('dialog', { class: 'import-dialog', 'aria-labelledby': 'import-title', dataset: { role: 'import-dialog' } });
  let current = null;

  /** Shows an error under the form (or clears it with ''). */
  function showMessage(text) {
    message.textContent = text;
    message.hidden = text === '';
  }

  function choose(role) {
    const { file, guess } = current;
    const names = Object.keys(file.tensors);
    const slots = SLOTS[role].map(([key, symbol]) => {
      const label = symbol ?? say('slot-weights');
      const select = h(
        'select',
        { dataset: { slot: key }, 'aria-label': label },
        names.map((n) => h('option', { value: n, selected: n === guess.pick[key] }, n)),
      );
      const transpose =
        key.startsWith('w') && role === 'self'
          ? h(
              'label',
              { class: 'import-transpose' },
              h('input', { type: 'checkbox', dataset: { transpose: key }, checked: Boolean(guess.transpose[key]) }),
              ` ${say('transpose')}`,
            )
          : null;
      return h('div', { class: 'import-slot' }, h('label', {}, h('span', { class: 'import-slot-name' }, label), select), transpose);
    });
    body.querySelector('.import-slots').replaceChildren(...slots);
    showMessage('');
  }

  function read() {
    const role = dialog.querySelector('input[name="import-role"]:checked').value;
    const tensor = (key) => current.file.tensors[dialog.querySelector(`select[data-slot="${key}"]`).value];
    const ticked = (key) => Boolean(dialog.querySelector(`input[data-transpose="${key}"]`)?.checked);
    const tokens = readTokensText(dialog.querySelector('[data-field="tokens"]').value, say);
    if (role === 'weights') {
      const attentions = weightsRole(tensor('weights'));
      const T = attentions.shape[2];
      if (tokens && tokens.length !== T) throw new RangeError(say('tokens-weights', { given: tokens.length, T }));
      return { role, attentions, tokens, name: current.name };
    }
    const patch =
      role === 'self'
        ? selfRole({ x: tensor('x'), wq: tensor('wq'), wk: tensor('wk'), wv: tensor('wv') }, { wq: ticked('wq'), wk: ticked('wk'), wv: ticked('wv') })
        : qkvRole({ q: tensor('q'), k: tensor('k'), v: tensor('v') });
    const T = role === 'self' ? patch.x.length : patch.q[0].length;
    if (tokens && tokens.length !== T) throw new RangeError(say('tokens-rows', { given: tokens.length, matrix: role === 'self' ? 'X' : 'Q', T }));
    return { role, patch, tokens, name: current.name };
  }

  const applyButton = h('button', {
    type: 'button',
    dataset: { action: 'apply-import' },
    onclick: () => {
      let choice;
      try {
        choice = read();
      } catch (error) {
        showMessage(error.message);
        return;
      }
      dialog.close();
      apply(choice);
    },
  });
  const chooseButton = h('button', { type: 'button', dataset: { action: 'choose-file' }, onclick: () => chooseFile() });
  const cancelButton = h('button', { type: 'button', class: 'icon-button', onclick: () => dialog.close() });

  /** A file to apply: Apply is the main action; a file that cannot be read: choosing another is, and Apply is off. */
  function setActions(readable) {
    applyButton.disabled = !readable;
    applyButton.className = readable ? 'button-primary' : 'icon-button';
    chooseButton.className = readable ? 'icon-button' : 'button-primary';
    applyButton.textContent = say('apply');
    chooseButton.textContent = say('choose-other');
    cancelButton.textContent = say('cancel');
  }

  function open(name, file) {
    const guess = guessRoles(file.tensors);
    current = { name, file, guess };
    const rows = Object.entries(file.tensors).map(([n, tensor]) =>
      h('tr', { dataset: { tensor: n } }, h('th', { scope: 'row' }, n), h('td', {}, `(${tensor.shape.join(', ')})`), h('td', {}, tensor.dtype)),
    );
    const roles = ROLES.map((value) =>
      h(
        'label',
        { class: 'import-role' },
        h('input', { type: 'radio', name: 'import-role', value, checked: value === guess.role, onchange: () => choose(value) }),
        h(
          'span',
          { class: 'import-role-text' },
          h('span', { class: 'import-role-name' }, say(`role-${value}`)),
          h('span', { class: 'import-role-hint' }, say(`hint-${value}`)),
        ),
      ),
    );
    body.replaceChildren(
      h(
        'div',
        { class: 'import-table-wrap' },
        h(
          'table',
          { class: 'import-tensors' },
          h('caption', {}, say('tensors')),
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col' }, say('col-tensor')), h('th', { scope: 'col' }, say('col-shape')), h('th', { scope: 'col' }, say('col-dtype'))),
          ),
          h('tbody', {}, rows),
        ),
      ),
      h('fieldset', { class: 'import-roles' }, h('legend', {}, say('holds')), roles),
      h('div', { class: 'import-slots' }),
      h(
        'div',
        { class: 'import-tokens' },
        h('label', { for: 'import-tokens' }, say('tokens')),
        h('input', {
          type: 'text',
          id: 'import-tokens',
          dataset: { field: 'tokens' },
          value: tokensText(file.tokens ?? []),
          'aria-describedby': 'import-tokens-hint',
        }),
        h('p', { id: 'import-tokens-hint', class: 'import-hint' }, say('tokens-hint')),
      ),
    );
    choose(guess.role);
    title.textContent = say('title', { name });
    setActions(true);
    if (!dialog.open) dialog.showModal();
  }

  dialog.append(title, body, message, h('p', { class: 'import-actions' }, applyButton, chooseButton, cancelButton));
  showMessage('');
  return {
    node: dialog,
    open,
    showError(name, error) {
      current = null;
      body.replaceChildren(h('p', { class: 'import-error-title' }, say('cannot-read')));
      title.textContent = say('title', { name });
      showMessage(errorText(langOf(dialog), error));
      setActions(false);
      if (!dialog.open) dialog.showModal();
      chooseButton.focus();
    },
  };
}
