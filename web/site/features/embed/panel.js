// "Embed": a masthead button, and an "Embed code" entry in every figure's menu (the figure-action
// hook of export/actions.js), opening a dialog that offers, first, the simplest path (Save as HTML:
// one file that opens offline), then the snippet for the current state: a custom element
// (<attn-figure> with the script of this site's elements.js) or an iframe of embed.html, with where
// those files must be hosted (a localhost address works only on this machine, while its server runs).
// From a figure's menu the file and the snippet show that stage only (in the matrix view).
import './embed.css';
import { h } from '../../../figures/dom.js';
import { copyButton, copyWords } from '../../controls/copy-button.js';
import { elementSnippet, iframeSnippet, localHost } from './snippets.js';
import { registerFigureAction } from '../../../figures/export/actions.js';
import { saveAsHtml } from '../save-html/panel.js';
import { CATALOGS } from '../../../i18n/index.js';

const KINDS = ['element', 'iframe'];

/** A stage's noun in the page's words ('weights' -> 'attention weights'), its id when it has none. */
const stageNoun = (id, t) => (Object.hasOwn(CATALOGS.en, `stage.${id}.noun`) ? t(`stage.${id}.noun`) : id);

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
  const snippet = h('textarea', { class: 'embed-snippet', readonly: true, rows: 6, spellcheck: 'false', 'aria-label': t('site.embed-code') });
  const note = h('p', { class: 'embed-note' });
  const host = h('p', { class: 'embed-host' });
  const local = h('p', { class: 'embed-local', role: 'note', hidden: true });
  const what = h('p', { class: 'embed-what' });
  const choices = KINDS.map((value) =>
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
      t(`embed.kind.${value}`),
    ),
  );
  const saveButton = h('button', { type: 'button', class: 'button-primary embed-save', onclick: () => save() }, t('site.save-html'));
  const dialog = h(
    'dialog',
    { class: 'embed-dialog', 'aria-labelledby': 'embed-title' },
    h('h2', { id: 'embed-title', class: 'embed-title' }, t('embed.title')),
    what,
    h(
      'section',
      { class: 'embed-option embed-file', 'aria-labelledby': 'embed-file-title' },
      h('h3', { id: 'embed-file-title', class: 'embed-option-title' }, t('embed.html-title')),
      h('p', { class: 'embed-note' }, t('embed.html-note')),
      saveButton,
    ),
    h(
      'section',
      { class: 'embed-option', 'aria-labelledby': 'embed-code-title' },
      h('h3', { id: 'embed-code-title', class: 'embed-option-title' }, t('embed.code-title')),
      h('div', { class: 'embed-kinds', role: 'radiogroup', 'aria-label': t('embed.kinds') }, choices),
      snippet,
      note,
      host,
      local,
    ),
    h(
      'div',
      { class: 'embed-actions' },
      h('a', { class: 'link-button', href: './guide.html', target: '_blank' }, t('embed.guide')),
      copyButton(snippet, announce, t('site.embed-code'), { class: 'icon-button embed-copy' }, copyWords(t, t('site.embed-code'))),
      h('button', { type: 'button', class: 'icon-button', onclick: () => dialog.close() }, t('embed.close')),
    ),
  );

  /** The figure as the snippet shows it: the stages from a figure's menu, else the whole example. */
  function save() {
    const state = store.get();
    const [attributes, parts] = scope.stages
      ? [{ stages: scope.stages.join(' ') }, [state.preset, ...scope.stages]]
      : [{ backward: true, view: state.view }, [state.preset]];
    return saveAsHtml(state, attributes, parts, { announce, t });
  }

  function fill() {
    const state = store.get();
    const here = (file) => new URL(file, window.location.href).href;
    const options = { ...scope, scriptUrl: here('./elements.js'), embedUrl: here('./embed.html'), lang };
    snippet.value = kind === 'element' ? elementSnippet(state, options) : iframeSnippet(state, options);
    note.textContent = t(`embed.kind.${kind}-note`);
    host.textContent = t(`embed.host-${kind}`);
    const onThisMachine = localHost(kind === 'element' ? options.scriptUrl : options.embedUrl);
    local.hidden = !onThisMachine;
    local.textContent = onThisMachine ? t('embed.localhost', { host: onThisMachine }) : '';
    what.textContent = scope.stages
      ? t('embed.what-stages', { stages: scope.stages.map((id) => stageNoun(id, t)).join(t('embed.stage-gap')) })
      : t('embed.what', { view: t(`site.view.${state.view}`) });
  }

  function open(options) {
    scope = options;
    fill();
    dialog.showModal();
    saveButton.focus();
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
