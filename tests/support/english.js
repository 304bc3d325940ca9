// English left on a page that should be Chinese: the visible text nodes, aria-labels, titles and
// placeholders outside the parts a page may keep in Latin letters, each word of three or more
// Latin letters that is not a name, a formula or a token. For the zh-CN pages' tests
// (tests/e2e/i18n.test.js, tests/e2e/guide-layout.test.js); englishInFigure for one element.

// What keeps its Latin letters in any language: formulas, code, keyboard keys, the embed snippets,
// the project's name, what says it is English, an opened file's own names. The figures, their
// captions, badges and menus are not kept: they speak the page's language too.
export const KEPT = [
  '.katex',
  'code',
  'kbd',
  'pre',
  'script',
  'style',
  'textarea', // formulas, code, keys, the embed snippets
  '.brand', // the project's name, attention-lab
  '[lang="en"]', // what says it is English: the language switch's own "English"
  '.import-dialog tbody', // an opened file's own tensor names and types
];

// Names and terms written in Latin letters in Chinese text too.
export const NAMES = new Set(
  (
    'attention-lab WebAssembly JavaScript JSON SIMD wasm simd relaxed scalar softmax tanh RoPE ALiBi ' +
    'PyTorch ONNX Llama GPT Hugging Face Bahdanau Luong Transformer Mistral Press Train Short Test Long d2l ' +
    'SGD KV kv float32 float64 multiHeadAttention attentionBackward is_causal base Self Attention Java HTML SVG PNG CSV ' +
    'Dive into Deep Learning Ctrl Enter Tab Esc Shift API JS iframe GFLOP MFLOP Markdown Vite NumPy rope ropeBackward safetensors npy npz ' +
    // the lab's feed-forward block, called so in the Chinese texts on transformers too
    'MLP'
  ).split(/\s+/),
);

/**
 * In the page: [{ text, where, words }] of every visible text node, aria-label, title and
 * placeholder with an English word, outside KEPT, inside `root` (a selector, default the body) and
 * the open shadow roots of the elements there (the <attn-*> figures). `tokens`: the example's token
 * text, kept as typed. Cheap on pages of thousands of figure numbers: a text is read for English
 * words first, and only one that has some is asked whether it is kept and shown (a layout query).
 */
export function englishOnPage({ kept, names, tokens, root = 'body' }) {
  const skip = kept.join(', ');
  const known = new Set([...names, ...tokens]);
  const isKnown = (w) => known.has(w) || known.has(w.replace(/['’]s$/, '')) || w.split('-').every((part) => part.length < 3 || known.has(part));
  // Quoted text (“the cat sat”, 《a tutorial’s title》) is a token or a title, kept as written; so
  // is code: an API call (selfAttention.backward()), a name with _ or digits (is_causal, float64), a
  // file name (elements.js, embed.html), a gradient's name (dQ, dWQ).
  const unquoted = (text) =>
    text
      .replace(/“[^”]*”|《[^》]*》/g, ' ')
      .replace(/[A-Za-z_]\w*\.\w+\(\)|\w*(?:_|\d)\w*|\b\w+\.(?:js|html|css|json|npy|npz|safetensors)\b|\bd[A-Z]\w*/g, ' ');
  const english = (text) => (unquoted(text).match(/[A-Za-z][A-Za-z'’-]{2,}/g) ?? []).filter((w) => !isKnown(w));
  const where = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
  // closest() stops at a shadow root: a figure inside a kept host is kept too.
  const isKept = (el) => {
    for (let node = el; node; node = node.getRootNode().host) if (node.closest(skip)) return true;
    return false;
  };
  // An SVG <title> is not drawn but shown as the tooltip of what holds it.
  const shown = (el) =>
    el.localName === 'title' && el.parentElement
      ? shown(el.parentElement)
      : el.checkVisibility({ visibilityProperty: true }) && el.closest('[hidden]') === null;
  const found = [];
  const walk = (top) => {
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const words = el && el.localName !== 'style' ? english(node.data) : [];
      if (words.length && !isKept(el) && shown(el)) found.push({ text: node.data.trim().slice(0, 80), words, where: where(el) });
    }
    for (const el of top.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const words = english(el.getAttribute(name) ?? '');
        if (words.length && !isKept(el)) found.push({ text: `${name}="${el.getAttribute(name).slice(0, 80)}"`, words, where: where(el) });
      }
    }
    for (const el of top.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  const top = document.querySelector(root);
  if (!top) throw new Error(`englishOnPage: no ${root} on the page`);
  walk(top);
  if (root === 'body') {
    const words = english(document.title);
    if (words.length) found.push({ text: 'document.title', words, where: 'head' });
  }
  return found;
}

/**
 * In a figure (an element's shadow root included): every English word (two Latin letters or more)
 * it shows or says (text, aria-label, title, aria-roledescription, placeholder) -> ['where: words
 * in “text”']. Kept as written: file formats (SVG, PNG, HTML, CSV), variable names (a word with
 * a digit or an underscore: b1, d_in), code (camelCase names, a call such as selfAttention.backward(),
 * a tag such as <attn-figure>, a name an error quotes: 'row-labels', a file: CHANGELOG.md), the
 * stages' symbols (W^Q drawn as WQ, dO, dWQ, Wq, the data key wq) and `kept` words (token text, scoring names).
 * Self-contained, so a test may pass it to page.evaluate.
 */
export function englishInFigure(root, kept = []) {
  const names =
    /<[^>]*>|'[^']*'|\b\w+\.md\b|\b(?:SVG|PNG|HTML|CSV)\b|\b\w*[\d_]\w*\b|[A-Za-z_]\w*\.\w+\(\)|\b[a-z]+[A-Z]\w*\b|\b(?:d?W[QKVO]|d[A-Z]|[Ww][qkvo])\b/g;
  const found = [];
  const look = (text, where) => {
    const words = (text ?? '')
      .replace(names, ' ')
      .match(/[A-Za-z]{2,}/g)
      ?.filter((w) => !kept.includes(w));
    if (words?.length) found.push(`${where}: ${words.join(' ')} in “${text.trim().slice(0, 90)}”`);
  };
  const walk = (node) => {
    for (const el of [node, ...node.querySelectorAll('*')]) {
      if (el.nodeType !== 1) continue;
      if (el.localName !== 'style' && el.localName !== 'script') {
        for (const child of el.childNodes) if (child.nodeType === 3) look(child.data, el.localName);
      }
      for (const name of ['aria-label', 'title', 'aria-roledescription', 'placeholder']) {
        if (el.hasAttribute(name)) look(el.getAttribute(name), `${el.localName}[${name}]`);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(root);
  return found;
}
