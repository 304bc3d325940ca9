// A "Copy" button for a read-only text (a field's value: a snippet, a report; or an element's
// text: a code block): it copies the text to the clipboard and says so for a moment; where the
// page may not write the clipboard, it selects the text for the reader to copy. `what` names the
// text in announcements ('Embed code' -> 'Embed code copied', 'Select all and copy the embed
// code'); `words` ({ copy, copied, done, failed }) replace the button's and the announcements'
// English words (the guide's code blocks in the page's language).
import { h } from '../../figures/dom.js';

const isField = (node) => 'value' in node && typeof node.select === 'function';

/** Selects the text of `node` (a field's, or an element's through a range) for the reader to copy. */
function selectText(node) {
  if (isField(node)) {
    node.focus();
    node.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

export function copyButton(source, announce, what, props = {}, words = {}) {
  const say = {
    copy: 'Copy',
    copied: 'Copied ✓',
    done: `${what} copied`,
    failed: `Select all and copy the ${what.toLowerCase()}`,
    ...words,
  };
  const button = h('button', { type: 'button', ...props, onclick: copy }, say.copy);
  async function copy() {
    try {
      await navigator.clipboard.writeText(isField(source) ? source.value : source.textContent);
      button.textContent = say.copied;
      announce(say.done);
    } catch {
      selectText(source);
      announce(say.failed);
    }
    setTimeout(() => {
      button.textContent = say.copy;
    }, 1600);
  }
  return button;
}

/** The button's words in the page's language (`what` already translated), for copyButton's `words`. */
export const copyWords = (t, what) => ({
  copy: t('panels.copy'),
  copied: t('panels.copied'),
  done: t('panels.copy-done', { what }),
  failed: t('panels.copy-failed', { what: what.toLowerCase() }),
});
