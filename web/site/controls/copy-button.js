// A "Copy" button for a read-only text field (a snippet, a report): it copies the field's text to
// the clipboard and says so for a moment; where the page may not write the clipboard, it selects the
// text for the reader to copy. `what` names the text in announcements ('Embed code' -> 'Embed code
// copied', 'Select all and copy the embed code').
import { h } from '../../figures/dom.js';

export function copyButton(field, announce, what, props = {}) {
  const button = h('button', { type: 'button', ...props, onclick: copy }, 'Copy');
  async function copy() {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = 'Copied ✓';
      announce(`${what} copied`);
    } catch {
      field.focus();
      field.select();
      announce(`Select all and copy the ${what.toLowerCase()}`);
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 1600);
  }
  return button;
}
