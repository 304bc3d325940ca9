// The heatmap and link views: the attention weights of every head (and every compared
// scoring), one figure each, like d2l's show_heatmaps grid or BertViz's head view.
// The figures' own modules, not figures/index.js: that one re-exports pipeline(), which draws this view.
import { heatmap } from '../heatmap.js';
import { links } from '../links.js';
import { h } from '../dom.js';
import { maskedFlags, tokenLabels } from '../../model/stages/common.js';
import { scoringName, stageLanguage } from '../../model/stages/registry.js';
import { figureMessage } from '../../i18n/figure-text.js';

// The gallery speaks the stage language (web/model/stages/registry.js), as the cards do.
const say = (key, params) => figureMessage(stageLanguage(), key, params);

function panelTitle(ctx, head, run) {
  const parts = [];
  if (ctx.result.heads.length > 1) parts.push(say('figure.gallery.head', { head }));
  if (ctx.result.heads[head].runs.length > 1) parts.push(scoringName(run.scoring));
  return parts.join(' · ') || scoringName(run.scoring);
}

/** First batch's (Tq, Tk) slice of a (B, Tq, Tk) tensor. */
function firstBatch(t) {
  const [Tq, Tk] = t.shape.slice(-2);
  return { data: t.data.subarray(0, Tq * Tk), shape: [Tq, Tk] };
}

/**
 * kind: 'heatmap' | 'links'. tools(stage, instances, figures, ctx) -> Node: what the explorer puts
 * above each figure (its figure menu); figures have none.
 */
export function galleryView(ctx, kind, { tools } = {}) {
  const { queries, keys } = tokenLabels(ctx.state);
  const masked = maskedFlags(ctx.result);
  const figures = [];
  ctx.result.heads.forEach((head, k) =>
    head.runs.forEach((run, r) => {
      const attrs = { 'data-head': k, 'data-run': r, 'data-scoring': run.scoring };
      const title = panelTitle(ctx, k, run);
      const figure =
        kind === 'heatmap'
          ? heatmap(run.weights, { title, lang: stageLanguage(), rowLabels: queries, colLabels: keys, masked, attrs })
          : links(firstBatch(run.weights), { title, lang: stageLanguage(), rowLabels: queries, colLabels: keys, masked, attrs });
      const stage = {
        id: kind === 'heatmap' ? 'heatmap' : 'links',
        title: title.replace(/^./, (c) => c.toUpperCase()),
        noun: say(kind === 'heatmap' ? 'figure.gallery.heatmap-noun' : 'figure.gallery.links-noun'),
      };
      const instance = { tensor: run.weights, rowLabels: queries, colLabels: keys, attrs };
      figures.push(
        h(
          'div',
          { class: 'gallery-item' },
          tools ? h('div', { class: 'gallery-tools' }, tools(stage, [instance], [figure], { ...ctx, head: k })) : null,
          h('div', { class: 'figure-scroll' }, figure),
        ),
      );
    }),
  );
  const note = kind === 'links' && ctx.result.sizes.B > 1 ? h('p', { class: 'gallery-note' }, say('figure.gallery.links-note')) : null;
  return h(
    'section',
    { class: 'gallery', 'aria-label': say(kind === 'heatmap' ? 'figure.gallery.heatmaps' : 'figure.gallery.links') },
    h(
      'header',
      { class: 'band-head' },
      h('h2', { class: 'band-title' }, say(kind === 'heatmap' ? 'figure.gallery.heatmaps' : 'figure.gallery.links')),
      h('p', { class: 'band-lede' }, say(kind === 'heatmap' ? 'figure.gallery.heatmaps-lede' : 'figure.gallery.links-lede')),
    ),
    note,
    h('div', { class: 'gallery-grid' }, figures),
  );
}
