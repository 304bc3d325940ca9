// The figure menu of a card: a disclosure button listing the registered figure actions
// (export/actions.js: SVG, PNG, CSV, and whatever another feature registers) for each figure of
// the card. Escape or a click elsewhere closes it.
import { h } from '../dom.js';
import { figureActions } from './actions.js';

let closerInstalled = false;

/** One listener for the whole page: close open menus on outside clicks and on Escape. */
function installCloser() {
  if (closerInstalled) return;
  closerInstalled = true;
  document.addEventListener('click', (event) => {
    for (const open of document.querySelectorAll('details.figure-menu[open]')) if (!open.contains(event.target)) open.open = false;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = event.target.closest?.('details.figure-menu[open]');
    if (!open) return;
    open.open = false;
    open.querySelector('summary').focus();
  });
}

/**
 * stage: { id, title, noun } (or a gallery's equivalent); instances: [{ tensor, label, rowLabels,
 * colLabels, attrs }]; svgs: their figure roots; ctx: { state, head }.
 */
export function figureMenu(stage, instances, svgs, ctx) {
  installCloser();
  const items = [];
  instances.forEach((inst, k) => {
    const headPart = ctx.state.heads > 1 ? `head${(inst.attrs?.['data-head'] ?? ctx.head) + 1}` : '';
    const target = {
      svg: svgs[k],
      tensor: inst.tensor,
      rowLabels: inst.rowLabels ?? null,
      colLabels: inst.colLabels ?? null,
      title: `${stage.title}, ${stage.noun}${inst.label ? ` (${inst.label})` : ''}`,
      name: [ctx.state.preset, stage.id, headPart, inst.label ?? ''],
    };
    for (const action of figureActions()) {
      items.push(h('button', {
        type: 'button', class: 'menu-item', role: 'menuitem', dataset: { action: action.id, instance: k },
        onclick: async (event) => {
          event.currentTarget.closest('details').open = false;
          await action.run(target);
        },
      }, action.label, inst.label && instances.length > 1 ? h('span', { class: 'menu-item-note' }, inst.label) : null));
    }
  });
  return h('details', { class: 'figure-menu' },
    h('summary', { class: 'chip tool-button', 'aria-label': `Export ${stage.noun}`, title: 'Export as SVG, PNG or CSV', dataset: { focusKey: `menu:${stage.id}:${ctx.head}` } }, 'Export'),
    h('div', { class: 'menu-list', role: 'menu', 'aria-label': `Export ${stage.noun}` }, items));
}
