// The main view: the pipeline (matrix view), or the heatmaps or links of every head. Cells are
// edited, scrubbed and masked through the figures' cell controller; edits go to the page's store.
import { h } from '../../figures/dom.js';
import { cellController } from '../../figures/interact/controller.js';
import { galleryView } from '../../figures/pipeline/gallery.js';
import { figureMenu } from '../../figures/export/menu.js';
import { errorText } from '../../i18n/figure-text.js';
import { markChecked, setCheckEntries, setCheckEntry, toggleCheck } from '../../model/state/edit.js';
import { pipelineView } from '../pipeline/pipeline.js';

function mount(container, app) {
  const { store } = app;
  const cells = cellController(container, {
    state: () => store.get(),
    edit: (change) => store.update(change),
    onMask: (id) => app.announce(app.t('site.mask-toggled', { row: id.row + 1, col: id.col + 1 })),
  });

  return {
    update(state, result, error) {
      if (error) {
        container.replaceChildren(h('p', { class: 'error-box', role: 'alert' }, app.t('site.cannot-compute', { message: errorText(app.lang, error) })));
        return;
      }
      const ctx = { state, result, head: state.head, lang: app.lang, t: app.t };
      cells.show(
        state.view === 'matrix'
          ? pipelineView(ctx, {
              onHead: (head) => store.update({ head }),
              onToggleCheck: (stage, shape) => store.update((s) => toggleCheck(s, stage, shape)),
              onCheckEntry: (stage, cell, text) => store.update((s) => setCheckEntry(s, stage, cell, text)),
              onCheckPaste: (stage, cell, texts) => store.update((s) => setCheckEntries(s, stage, cell, texts)),
              onChecked: (stage, how) => store.update((s) => markChecked(s, stage, how)),
            })
          : galleryView(ctx, state.view, { tools: figureMenu }),
      );
    },
  };
}

export const viewsPanel = { id: 'views', slot: 'main', order: 100, mount };
