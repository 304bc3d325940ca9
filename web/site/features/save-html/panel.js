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

function mount(container, { store, announce, t }) {
  async function save(attributes, parts) {
    announce('Saving the figure as one HTML file…');
    try {
      const text = await savedFigure(store.get(), attributes);
      download(new Blob([text], { type: 'text/html' }), fileName(parts, 'html'));
      announce('Saved: one HTML file that opens offline');
    } catch (error) {
      announce(`Could not save: ${error.message}`);
      throw error;
    }
  }

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
        onclick: () => save({ backward: true, view: store.get().view }, [store.get().preset]),
      },
      t('site.save-html'),
    ),
  );
  return { update() {} };
}

export const saveHtmlPanel = { id: 'save-html', slot: 'masthead', order: 39, mount };
