// TeX -> HTML with KaTeX (bundled, no CDN), cached: the same formulas render on every edit.
import katex from 'katex';
import 'katex/dist/katex.min.css';

const cache = new Map();

/** HTML of `latex`; display: block layout. Errors render as red source text, never throw. */
export function texHtml(latex, { display = false } = {}) {
  const key = `${display ? 'D' : 'I'}${latex}`;
  let html = cache.get(key);
  if (html === undefined) {
    html = katex.renderToString(latex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
    if (cache.size > 2000) cache.clear();
    cache.set(key, html);
  }
  return html;
}

/** An element holding typeset TeX. */
export function texNode(latex, { display = false, className = 'tex' } = {}) {
  const node = document.createElement(display ? 'div' : 'span');
  node.className = className;
  node.innerHTML = texHtml(latex, { display });
  return node;
}
