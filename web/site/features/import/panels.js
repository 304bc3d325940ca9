// Files in the explorer: the Open button (first in the controls; the masthead is full at 390 px) ([data-action="import"], holding an
// <input type="file">) and drag-and-drop anywhere on the page read .npy, .npz, .safetensors or
// JSON with attention-lab/io (loaded on first use) into the import dialog; attention weights go
// to the model view ([data-view="heads"], figures' heads()), X/W or Q/K/V into the state.
import { h } from '../../../figures/dom.js';
import { fieldset } from '../../panels/widgets.js';
import { importDialog } from './dialog.js';
import { t } from '../../../i18n/index.js';
import { langOf } from '../../../figures/interact/messages.js';
import { registerSaveActions } from './save.js';
// The model view's preset: the attentions of the induction model trained by tools/model/train_induction.py.
import inductionUrl from '../../../../examples/induction/attention.safetensors?url';
import { pageLang } from '../../page-lang.js';

const SHOW = 'attnlab-show-heads'; // document event: { attentions, tokens, name } for the model view
const SHOWING = 'modelView'; // <html data-model-view>: the model view stands in for the example (import.css)

let closeModelView = () => {}; // set by the model view's mount

/** After Apply: the keyboard continues in the pipeline the file was loaded into. */
function focusPipeline() {
  const pipeline = document.querySelector('.panel-views');
  if (!pipeline) return;
  pipeline.tabIndex = -1;
  pipeline.focus({ preventScroll: false });
}

async function openFile(file, dialog) {
  try {
    const { readTensors } = await import('../../../io/index.js');
    dialog.open(file.name, await readTensors(file, { name: file.name }));
  } catch (error) {
    dialog.showError(file.name, error);
  }
}

function mountOpen(container, { store, announce }) {
  registerSaveActions();
  const say = (id, params) => t(langOf(container), `import.${id}`, params);
  const dialog = importDialog(
    (choice) => {
      if (choice.role === 'weights') {
        document.dispatchEvent(new CustomEvent(SHOW, { detail: choice }));
        announce(say('shown-weights', { name: choice.name }));
        return;
      }
      closeModelView();
      store.update((state) => ({ ...state, ...choice.patch, ...(choice.tokens ? { tokens: choice.tokens } : {}), preset: 'file', head: 0, checks: {} }));
      announce(say('loaded', { name: choice.name, what: choice.role === 'self' ? 'X, Wq, Wk, Wv' : 'Q, K, V' }));
      focusPipeline();
    },
    () => input.click(),
  );
  const input = h('input', {
    type: 'file',
    accept: '.npy,.npz,.safetensors,.json',
    class: 'visually-hidden',
    style: 'position:absolute;width:1px;height:1px;opacity:0',
    onchange: () => {
      if (input.files[0]) openFile(input.files[0], dialog);
      input.value = '';
    },
  });
  const button = h(
    'label',
    { class: 'icon-button', dataset: { action: 'import' }, style: 'display:inline-flex;align-items:center;gap:4px', title: say('open-title') },
    say('open-button'),
    input,
  );
  const dragging = (on) => document.documentElement.classList.toggle('dropping-file', on);
  document.addEventListener('dragover', (event) => {
    if (![...(event.dataTransfer?.types ?? [])].includes('Files')) return;
    event.preventDefault();
    dragging(true);
  });
  document.addEventListener('dragleave', (event) => {
    if (!event.relatedTarget) dragging(false);
  });
  document.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files?.[0];
    dragging(false);
    if (!file) return;
    event.preventDefault();
    openFile(file, dialog);
  });
  const example = h(
    'button',
    {
      type: 'button',
      class: 'icon-button',
      dataset: { action: 'example-heads' },
      title: say('example-title'),
      onclick: async () => {
        try {
          const { readTensors } = await import('../../../io/index.js');
          const bytes = new Uint8Array(await (await fetch(inductionUrl)).arrayBuffer());
          const file = await readTensors(bytes, { name: 'induction-model.safetensors' });
          document.dispatchEvent(new CustomEvent(SHOW, { detail: { attentions: file.tensors.attention, tokens: file.tokens, name: say('example-name') } }));
        } catch (error) {
          dialog.showError('induction-model.safetensors', error);
        }
      },
    },
    say('example'),
  );
  container.append(
    fieldset(
      say('panel-title'),
      h('p', { class: 'control-hint', style: 'margin:0 0 8px;font-size:12.5px' }, say('panel-hint')),
      h('p', { style: 'display:flex;flex-wrap:wrap;gap:8px;margin:0' }, button, example),
    ),
  );
  // In <body>, not in the controls: a phone folds the controls away, and a dialog in a hidden section is never drawn.
  document.body.append(dialog.node);
  return { update() {} };
}

// The model view stands in for the example it replaces: while it is shown, <html data-model-view>
// hides the example's headline and pipeline (import.css); any change of the state (a preset, an
// edit) brings them back.
function mountHeads(container) {
  const say = (id, params) => t(langOf(container), `import.${id}`, params);
  container.dataset.view = 'heads';
  container.hidden = true;
  const title = h('h2', { class: 'model-view-title', id: 'model-view-title', tabindex: '-1' });
  const lede = h('p', { class: 'model-view-lede' });
  // Scrolls sideways when the grid is wider than a phone: focusable, so the keyboard can scroll it too.
  const figure = h('div', { class: 'model-view-figure', tabindex: '0', role: 'region', 'aria-labelledby': 'model-view-title' });
  const close = h('button', { type: 'button', class: 'icon-button', dataset: { action: 'close-model-view' }, onclick: () => hide() });
  container.append(h('div', { class: 'model-view-head' }, title, close), lede, figure);
  let shownOver = null; // the state the model view stands in for
  let latest = null;
  closeModelView = () => hide();
  function hide() {
    container.hidden = true;
    figure.replaceChildren();
    shownOver = null;
    delete document.documentElement.dataset[SHOWING];
  }
  document.addEventListener(SHOW, async ({ detail }) => {
    const { heads } = await import('../../../figures/heads.js');
    title.textContent = say('model-view', { name: detail.name });
    lede.textContent = say('model-view-lede', { name: detail.name });
    close.textContent = say('close');
    figure.replaceChildren(heads(detail.attentions, { lang: pageLang(), rowLabels: detail.tokens ?? null, title: '' }));
    container.hidden = false;
    shownOver = latest;
    document.documentElement.dataset[SHOWING] = '';
    window.scrollTo?.({ top: 0 });
    title.focus();
  });
  return {
    update(state) {
      latest = state;
      if (shownOver && state !== shownOver) hide();
    },
  };
}

export const importPanels = [
  { id: 'import', slot: 'controls', order: 5, mount: mountOpen },
  { id: 'model-view', slot: 'main', order: 50, mount: mountHeads },
];
