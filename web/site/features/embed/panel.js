// "Embed": a masthead button, and an "Embed code" entry in every figure's menu (the figure-action
// hook of export/actions.js), opening a dialog with the snippet for the current state: a custom
// element (<attn-figure> with the script of this site's elements.js) or an iframe of embed.html.
// From a figure's menu the snippet shows that stage only (in the matrix view).
import './embed.css';
import { h } from '../../../figures/dom.js';
import { copyButton } from '../../controls/copy-button.js';
import { elementSnippet, iframeSnippet } from './snippets.js';
import { registerFigureAction } from '../../../figures/export/actions.js';

const KINDS = [
  [
    'element',
    'Custom element',
    'For pages that allow scripts (a blog theme, a Vite or plain HTML page). The figure is live: it computes in the reader’s browser.',
  ],
  ['iframe', 'Iframe', 'For hosts that strip scripts: the figure runs inside embed.html on this site; the lines after the iframe resize it to fit.'],
];

// The figure menus' "Embed code" entry is registered once for the page; a mount (again after a
// language change) points it at its own dialog.
let opener = null;
registerFigureAction({
  id: 'embed',
  get label() {
    return opener.t('site.embed-code');
  },
  run: (target) => opener.open(opener.store.get().view === 'matrix' ? { stages: [target.svg.dataset.stage] } : {}),
});

function mount(container, { store, announce, t, lang }) {
  let kind = 'element';
  let scope = {}; // { stages } when opened from a figure's menu
  const snippet = h('textarea', { class: 'embed-snippet', readonly: true, rows: 9, spellcheck: 'false', 'aria-label': 'Embed code' });
  const note = h('p', { class: 'embed-note' });
  const what = h('p', { class: 'embed-what' });
  const choices = KINDS.map(([value, label]) =>
    h(
      'label',
      { class: 'embed-kind' },
      h('input', {
        type: 'radio',
        name: 'embed-kind',
        value,
        checked: value === kind,
        onchange: () => {
          kind = value;
          fill();
        },
      }),
      label,
    ),
  );
  const dialog = h(
    'dialog',
    { class: 'embed-dialog', 'aria-labelledby': 'embed-title' },
    h('h2', { id: 'embed-title', class: 'embed-title' }, 'Embed this figure'),
    what,
    h('div', { class: 'embed-kinds', role: 'radiogroup', 'aria-label': 'Kind of embed code' }, choices),
    snippet,
    note,
    h(
      'div',
      { class: 'embed-actions' },
      h('a', { class: 'link-button', href: './guide.html', target: '_blank' }, 'Embedding guide'),
      copyButton(snippet, announce, 'Embed code', { class: 'button-primary embed-copy' }),
      h('button', { type: 'button', class: 'icon-button', onclick: () => dialog.close() }, 'Close'),
    ),
  );

  function fill() {
    const state = store.get();
    const here = (file) => new URL(file, window.location.href).href;
    const options = { ...scope, scriptUrl: here('./elements.js'), embedUrl: here('./embed.html'), lang };
    snippet.value = kind === 'element' ? elementSnippet(state, options) : iframeSnippet(state, options);
    note.textContent = KINDS.find(([value]) => value === kind)[2];
    what.textContent = scope.stages
      ? `The ${scope.stages.join(', ')} matrix of this example, exactly as the explorer shows it now.`
      : `This example as the explorer shows it now (${state.view} view), with its inputs, masks and scoring.`;
  }

  function open(options) {
    scope = options;
    fill();
    dialog.showModal();
    snippet.focus();
    snippet.select();
  }

  opener = { open, store, t };
  container.append(
    h(
      'button',
      { type: 'button', class: 'icon-button', title: t('site.embed-title'), 'aria-haspopup': 'dialog', onclick: () => open({}) },
      `</> ${t('site.embed')}`,
    ),
    dialog,
  );
  return {
    update() {
      if (dialog.open) fill();
    },
  };
}

export const embedCodePanel = { id: 'embed-code', slot: 'masthead', order: 38, mount };
