// embed.html: one <attn-figure> from the address, for an iframe on a page that strips scripts.
//   embed.html#s=<base64url state>&stages=weights%20output&backward&theme=dark
//   embed.html?preset=d2l#view=heatmap
//   embed.html?lang=zh-CN#s=...    the language (else the browser's): <html lang> and the figure's lang
// The state is the explorer's (#s=..., as its links carry it); the other parameters are the
// element's attributes. The page posts { type: 'attention-lab:height', height } to its parent
// whenever its height changes (the snippet from snippets.js listens and resizes the iframe).
import '../../../elements/index.js';
import { pickLanguage, t } from '../../../i18n/index.js';
import { decodeState, languageOf } from '../../url.js';

const ATTRIBUTES = [
  'preset',
  'stages',
  'scoring',
  'compare',
  'causal',
  'valid-lens',
  'mask-fill',
  'window',
  'alibi',
  'rope',
  'heads',
  'kv-heads',
  'head',
  'view',
  'backward',
  'editable',
  'captions',
  'theme',
];

/** The element's attributes from the query (?preset=) and the hash (#s=...&name=value&flag). */
function attributesFrom(location) {
  const attributes = new Map();
  for (const [name, value] of new URLSearchParams(location.search)) if (ATTRIBUTES.includes(name)) attributes.set(name, value);
  for (const part of location.hash.replace(/^#/, '').split('&').filter(Boolean)) {
    if (part.startsWith('s=')) {
      attributes.set('data', JSON.stringify(decodeState(`#${part}`)));
      continue;
    }
    const [name, value = ''] = part.split('=');
    if (ATTRIBUTES.includes(name)) attributes.set(name, decodeURIComponent(value));
  }
  return attributes;
}

const figure = document.getElementById('figure');
const lang = languageOf(window.location) ?? pickLanguage(navigator.languages ?? [navigator.language]);
document.documentElement.lang = lang;
document.title = t(lang, 'site.embed-page-title');

function apply() {
  for (const name of [...figure.getAttributeNames()]) if (name !== 'id') figure.removeAttribute(name);
  // The figure's language (the elements read their lang attribute, else the page's).
  figure.setAttribute('lang', lang);
  try {
    for (const [name, value] of attributesFrom(window.location)) figure.setAttribute(name, value);
  } catch (error) {
    // A damaged link: the element shows the default example; the console says why.
    console.warn(`attention-lab embed: the link's state could not be read (${error.message})`);
  }
}

let posted = 0;
function postHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === posted || window.parent === window) return;
  posted = height;
  window.parent.postMessage({ type: 'attention-lab:height', height }, '*');
}

apply();
window.addEventListener('hashchange', apply);
new ResizeObserver(postHeight).observe(document.documentElement);
figure.addEventListener('attn-render', postHeight);
