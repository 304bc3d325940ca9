// One stage as a card: its symbol and name, the formula typeset beside it, one matrix per
// instance (head/run), and a caption.
import { matrix } from '../../figures/index.js';
import { h } from '../controls/dom.js';
import { sizeText } from '../stages/common.js';
import { texNode } from './tex.js';

export function stageCard(stage, ctx) {
  const instances = stage.instances(ctx);
  const editable = Boolean(stage.editable?.(ctx));
  const figures = instances.map((inst) => {
    const figure = matrix(inst.tensor, {
      stage: stage.id,
      title: `${stage.title}, ${stage.noun}${inst.label ? ` (${inst.label})` : ''}`,
      kind: stage.kind,
      rowLabels: inst.rowLabels ?? null,
      colLabels: inst.colLabels ?? null,
      masked: inst.masked ?? null,
      editable,
      attrs: inst.attrs,
      cellLabel: (b, i, j, v) => `${stage.noun}${inst.label ? ` (${inst.label})` : ''}${inst.tensor.shape.length > 2 && inst.tensor.shape[0] > 1 ? `, batch ${b + 1}` : ''}, row ${i + 1}${inst.rowLabels ? ` (${inst.rowLabels[i]})` : ''}, column ${j + 1}${inst.colLabels ? ` (${inst.colLabels[j]})` : ''}: ${String(v)}`,
    });
    return h('figure', { class: 'figure' },
      inst.label ? h('figcaption', { class: 'figure-label' }, inst.label) : null,
      h('div', { class: 'figure-scroll' }, figure));
  });
  const caption = stage.caption?.(ctx);
  return h('article', { class: `stage-card${editable ? ' is-editable' : ''}`, dataset: { card: stage.id } },
    h('header', { class: 'stage-head' },
      h('h3', { class: 'stage-title' },
        texNode(stage.tex ?? stage.title, { className: 'stage-symbol' }),
        h('span', { class: 'stage-noun' }, stage.noun),
        h('span', { class: 'stage-size' }, sizeText(instances[0].tensor)),
        editable ? h('span', { class: 'badge' }, 'editable') : null),
      texNode(stage.formula(ctx), { className: 'stage-formula' })),
    h('div', { class: 'stage-figures' }, figures),
    caption ? h('p', { class: 'stage-caption' }, caption) : null);
}
