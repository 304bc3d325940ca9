// The matrix view: every registered stage in order, band by band, for the chosen head, drawn by
// the figures' renderer with the explorer's cards; head tabs above the projection weights.
import { h } from '../../figures/dom.js';
import { stageBands } from '../../figures/pipeline/render.js';
import { explorerCard } from './stage-card.js';

/** handlers: { onHead(k), and the stage cards' onToggleCheck, onCheckEntry, onCheckPaste, onChecked }. */
export function pipelineView(ctx, handlers) {
  const bands = stageBands(ctx, { numbered: true, card: (stage) => explorerCard(stage, ctx, handlers) });
  const heads = ctx.result.heads.length;
  const headTabs =
    heads > 1
      ? h(
          'div',
          { class: 'head-tabs', role: 'tablist', 'aria-label': ctx.t('site.head-tabs') },
          Array.from({ length: heads }, (_, k) =>
            h(
              'button',
              {
                type: 'button',
                role: 'tab',
                class: 'head-tab',
                'aria-selected': String(k === ctx.head),
                tabindex: k === ctx.head ? 0 : -1,
                onclick: () => handlers.onHead(k),
              },
              ctx.t('site.head', { head: k }),
            ),
          ),
        )
      : null;
  // The head tabs sit where the heads begin: above the projection weights (X is shared).
  const at = bands.findIndex((band) => band.classList.contains('band-weights'));
  if (headTabs) bands.splice(Math.max(0, at), 0, headTabs);
  return h('div', { class: 'pipeline', id: 'pipeline' }, bands);
}
