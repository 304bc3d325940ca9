// The figure menu of the explorer's cards and gallery: the menu component (menu-button.js) listing
// the registered figure actions (export/actions.js: SVG, PNG, CSV, and whatever another feature
// registers) for each figure of a card, in the stage language (web/model/stages/registry.js), as the cards.
import { figureMessage } from '../../i18n/figure-text.js';
import { stageLanguage } from '../../model/stages/registry.js';
import { figureActions } from './actions.js';
import { menu } from './menu-button.js';

/**
 * The explorer's menu of a card. stage: { id, title, noun } (or a gallery's equivalent);
 * instances: [{ tensor, label, rowLabels, colLabels, attrs }]; svgs: their figure roots;
 * ctx: { state, head }.
 */
export function figureMenu(stage, instances, svgs, ctx) {
  const items = [];
  instances.forEach((inst, k) => {
    const headPart = ctx.state.heads > 1 ? `head${inst.attrs?.['data-head'] ?? ctx.head}` : '';
    const target = {
      svg: svgs[k],
      tensor: inst.tensor,
      rowLabels: inst.rowLabels ?? null,
      colLabels: inst.colLabels ?? null,
      title: `${stage.title}, ${stage.noun}${inst.label ? ` (${inst.label})` : ''}`,
      name: [ctx.state.preset, stage.id, headPart, inst.label ?? ''],
    };
    for (const action of figureActions()) {
      items.push({
        id: action.id,
        label: action.label,
        dataset: { instance: k },
        run: () => action.run(target),
        note: inst.label && instances.length > 1 ? inst.label : null,
      });
    }
  });
  return menu({
    items,
    label: figureMessage(stageLanguage(), 'figure.export'),
    className: 'chip tool-button',
    name: figureMessage(stageLanguage(), 'figure.menu.name', { noun: stage.noun }),
    title: figureMessage(stageLanguage(), 'figure.menu.title'),
    focusKey: `menu:${stage.id}:${ctx.head}`,
  });
}
