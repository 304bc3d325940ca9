// The one pipeline renderer: stages (web/model/stages) as cards, cards in bands. The explorer and
// the pipeline figure (pipeline.js, <attn-figure>) both draw through it; what differs is filled in
// through hooks, so the explorer adds its KaTeX formulas, Check button and figure menu without the
// figures knowing about KaTeX.
//
// A card:
//   article.stage-card[data-card=id]
//     header.stage-head   h3.stage-title (symbol, noun, size, badge), then hooks.formula's node
//     div.stage-figures   one figure.figure per instance (figcaption.figure-label, div.figure-scroll > svg)
//     hooks.below's node  (the explorer's check grid)
//     p.stage-caption     when captions are on and the stage has one
//     footer.stage-tools  hooks.tools' nodes, when any
import { h } from '../dom.js';
import { figureMessage } from '../../i18n/figure-text.js';
import { allGroups, stageLanguage, stagesOf } from '../../model/stages/registry.js';
import { sizeText } from '../../model/stages/common.js';
import { stageFigure } from './stage-figure.js';

/** The stage's symbol without KaTeX: its TeX when that is a letter with a superscript (W^Q, dW^K), else its title. */
export function plainSymbol(stage) {
  const parts = /^([A-Za-z]+)\^([A-Za-z])$/.exec(stage.tex ?? '');
  return h('span', { class: 'stage-symbol' }, parts ? [parts[1], h('sup', {}, parts[2])] : stage.title);
}

/**
 * One stage as a card.
 * options: editable (mark editable cells), captions (default true), className (extra classes),
 * hooks: symbol(stage) -> Node (default plainSymbol), formula(stage, ctx) -> Node | null,
 *        below(stage, ctx, instances) -> Node | null, tools(stage, ctx, instances, svgs) -> [Node]
 */
export function stageCard(stage, ctx, { editable = false, captions = true, className = '', symbol = plainSymbol, formula, below, tools } = {}) {
  const instances = stage.instances(ctx);
  const canEdit = Boolean(editable && stage.editable?.(ctx));
  const svgs = instances.map((inst) => stageFigure(stage, { ...inst, editable: canEdit }));
  const caption = captions ? stage.caption?.(ctx) : null;
  const toolNodes = tools?.(stage, ctx, instances, svgs)?.filter(Boolean) ?? [];
  return h(
    'article',
    { class: `stage-card${canEdit ? ' is-editable' : ''}${className ? ` ${className}` : ''}`, dataset: { card: stage.id } },
    h(
      'header',
      { class: 'stage-head' },
      h(
        'h3',
        { class: 'stage-title' },
        symbol(stage),
        h('span', { class: 'stage-noun' }, stage.noun),
        h('span', { class: 'stage-size' }, sizeText(instances[0].tensor)),
        canEdit ? h('span', { class: 'badge' }, figureMessage(stageLanguage(), 'figure.editable')) : null,
      ),
      formula?.(stage, ctx) ?? null,
    ),
    h(
      'div',
      { class: 'stage-figures' },
      instances.map((inst, k) =>
        h(
          'figure',
          { class: 'figure' },
          inst.label ? h('figcaption', { class: 'figure-label' }, inst.label) : null,
          h('div', { class: 'figure-scroll' }, svgs[k]),
        ),
      ),
    ),
    below?.(stage, ctx, instances) ?? null,
    caption ? h('p', { class: 'stage-caption' }, caption) : null,
    // At the foot, so the tools never make a card wider than its figure.
    toolNodes.length > 0 ? h('footer', { class: 'stage-tools' }, toolNodes) : null,
  );
}

/**
 * The bands of the pipeline: each group that has stages to show, its cards in order.
 * show(stage) picks the stages; card(stage) draws one; numbered: the explorer's bands (a step
 * number, the title and the lede always); otherwise a title only when there are several bands.
 * -> [HTMLElement] (empty when no stage is shown)
 */
export function stageBands(ctx, { show = () => true, card, numbered = false }) {
  const bands = [];
  for (const group of allGroups()) {
    const stages = stagesOf(group.id, ctx).filter(show);
    if (stages.length > 0) bands.push({ group, stages });
  }
  const titled = numbered || bands.length > 1;
  return bands.map(({ group, stages }, k) =>
    h(
      'section',
      { class: `band band-${group.id}`, dataset: { band: group.id }, 'aria-labelledby': numbered ? `band-${group.id}` : null },
      titled
        ? h(
            'header',
            { class: 'band-head' },
            numbered ? h('span', { class: 'band-step', 'aria-hidden': 'true' }, String(k + 1)) : null,
            h('h2', { id: numbered ? `band-${group.id}` : null, class: 'band-title' }, group.title),
            numbered ? h('p', { class: 'band-lede' }, group.lede) : null,
          )
        : null,
      h('div', { class: `band-cards cards-${Math.min(stages.length, 4)}` }, stages.map(card)),
    ),
  );
}
