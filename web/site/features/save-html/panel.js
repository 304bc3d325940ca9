// "Save as HTML": the explorer's figures, or the whole example, as ONE .html file that opens from
// file:// with no network and keeps computing (web/figures/export/standalone-html.js): a
// computing <attn-figure> with the example's state inline, editable, with its captions. From a
// card's figure menu: that stage (the gallery's menu: its view); from the masthead: every stage
// the explorer shows, the backward pass included.
import { h } from '../../../figures/dom.js';
import { registerFigureAction } from '../../../figures/export/actions.js';
import { download, fileName } from '../../../figures/export/download.js';

/** The standalone file of `state` (the page state: its check mode and speed stay behind). */
export async function savedFigure(state, attributes) {
  const [{ standaloneHtml }, { readPackageFile }] = await Promise.all([import('../../../figures/export/standalone-html.js'), import('./sources.js')]);
  const { checks, checked, speed, ...example } = state;
  return standaloneHtml(
    {
      element: 'attn-figure',
      attributes: { editable: true, captions: true, ...attributes },
      data: example,
      title: `attention-lab: ${state.preset}`,
    },
    { read: readPackageFile },
  );
}

// The figure menus' "Save as HTML" entry is registered once for the page; a mount (again after a
// language change) points it at its own save().
let saver = null;
registerFigureAction({
  id: 'html',
  get label() {
    return saver.t('site.save-html');
  },
  get note() {
    return saver.t('site.save-html-note');
  },
  run: (target) => saver.run(target),
});

/**
 * Saves `state` as one .html file (download), saying so through announce in the page's words.
 * attributes: the figure's (stages, view, backward); parts: the file name's parts.
 */
export async function saveAsHtml(state, attributes, parts, { announce, t }) {
  announce(t('save.saving'));
  try {
    const text = await savedFigure(state, attributes);
    download(new Blob([text], { type: 'text/html' }), fileName(parts, 'html'));
    announce(t('save.saved'));
  } catch (error) {
    announce(t('save.failed', { message: error.message }));
    throw error;
  }
}

/** The whole example as the explorer shows it (the backward pass included): the masthead's save. */
export const saveExample = (store, app) => saveAsHtml(store.get(), { backward: true, view: store.get().view }, [store.get().preset], app);

function mount(container, { store, announce, t }) {
  const save = (attributes, parts) => saveAsHtml(store.get(), attributes, parts, { announce, t });

  saver = {
    t,
    run: (target) => {
      const state = store.get();
      const stage = target.svg.closest('[data-card]')?.dataset.card ?? target.svg.dataset.stage;
      // A backward stage among `stages` computes the backward pass by itself (wantsBackward);
      // the `backward` attribute would add every gradient band to the one card saved.
      const attributes = state.view === 'matrix' ? { stages: stage } : { view: state.view };
      return save(attributes, [state.preset, state.view === 'matrix' ? stage : state.view]);
    },
  };
  container.append(
    h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: t('site.save-html-title'),
        onclick: () => saveExample(store, { announce, t }),
      },
      t('site.save-html'),
    ),
  );
  return { update() {} };
}

export const saveHtmlPanel = { id: 'save-html', slot: 'masthead', order: 39, mount };
