// A box that scrolls sideways only when its content is wider than it (a long formula on a phone):
// in the tab order while it does, so a keyboard can scroll it as a mouse can (axe:
// scrollable-region-focusable), and out of it otherwise, so the page's tab order does not grow by
// one stop per card. Checked when the box resizes and when web fonts arrive (KaTeX's fonts widen
// the content, not the box).
const boxes = new Set();

function check(box) {
  if (!box.isConnected) return;
  if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
  else box.removeAttribute('tabindex');
}

const observer = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (target.isConnected) check(target);
    else forget(target); // a redrawn card drops its old nodes
  }
});

function forget(box) {
  observer.unobserve(box);
  boxes.delete(box);
}

document.fonts?.addEventListener('loadingdone', () => {
  for (const box of boxes) (box.isConnected ? check : forget)(box);
});

/** `node`, focusable whenever it scrolls sideways. */
export function focusableWhenScrolling(node) {
  boxes.add(node);
  observer.observe(node);
  return node;
}
