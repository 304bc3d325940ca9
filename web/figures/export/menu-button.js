// The figures' one menu (the explorer's cards, the elements' toolbar): a summary over a list of
// actions, closed by Escape or a click elsewhere, listened for on the document only while open.
// A menu removed while open drops that listener: at once through closeMenu() (the elements call it
// when they leave the page), or at the next click anywhere (the explorer's cards, redrawn whole).
import { h } from '../dom.js';

const listeners = new WeakMap(); // an open menu -> its document click listener

/** Closes `details` (a menu()) and drops its document listener now, not at the toggle event. */
export function closeMenu(details) {
  details.open = false;
  const outside = listeners.get(details);
  if (outside) details.ownerDocument.removeEventListener('click', outside);
  listeners.delete(details);
}

/** items: [{ id, label, note?, dataset?, run() }]; name: its accessible name. -> <details>. */
export function menu({ items, label = 'Export', className, name, title, focusKey, part }) {
  const details = h('details', { class: 'figure-menu' });
  const summary = h('summary', { class: className, part, 'aria-label': name, title, dataset: focusKey ? { focusKey } : {} }, label);
  // composedPath(): a click inside an element's shadow root is inside, not elsewhere.
  const outside = (event) => {
    if (!details.isConnected) closeMenu(details);
    else if (!event.composedPath().includes(details)) details.open = false;
  };
  details.addEventListener('toggle', () => {
    if (details.open && !listeners.has(details)) {
      listeners.set(details, outside);
      details.ownerDocument.addEventListener('click', outside);
    } else if (!details.open) {
      closeMenu(details);
    }
  });
  details.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !details.open) return;
    event.preventDefault();
    details.open = false;
    summary.focus();
  });
  const buttons = items.map((item) =>
    h(
      'button',
      {
        type: 'button',
        class: 'menu-item',
        part,
        role: 'menuitem',
        dataset: { action: item.id, ...item.dataset },
        onclick: () => {
          details.open = false;
          return item.run();
        },
      },
      item.label,
      item.note ? h('span', { class: 'menu-item-note' }, item.note) : null,
    ),
  );
  details.append(summary, h('div', { class: 'menu-list', role: 'menu', 'aria-label': name }, buttons));
  return details;
}
