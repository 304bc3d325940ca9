// The embed code of an explorer state, as the "Embed" dialog offers it:
//   elementSnippet(state, options)  a module script and an <attn-figure> (the preset's name when
//                                    the state is a preset as it comes, else the state as JSON)
//   iframeSnippet(state, options)   an <iframe> of embed.html#s=<state>&<options>, and the few
//                                    lines that size it to its content (embed.js posts its height)
//   embedHash(state, options)       that hash
//   localHost(url)                  the host when url is this machine (a snippet that works only here)
// options: { stages (ids, matrix view only), backward, scriptUrl, embedUrl, lang (the page's:
// the element's lang attribute and the iframe's embed.html?lang= when it is not English, the default) }.
import { presetPage } from '../../page-state.js';
import { encodeState } from '../../url.js';
import { HEIGHT_LISTENER } from './height-listener.js';

// Page state that no figure shows: left out of the snippets.
const PAGE_ONLY = ['checks', 'checked', 'speed'];

/** The state without the page-only fields. */
function figureState(state) {
  const copy = { ...state };
  for (const key of PAGE_ONLY) delete copy[key];
  return copy;
}

/** True when state is its preset as the preset makes it (only the view and head may differ). */
function isPlainPreset(state) {
  const plain = (s) => JSON.stringify({ ...figureState(s), view: 'matrix', head: 0 });
  return state.preset !== 'custom' && plain(state) === plain(presetPage(state.preset));
}

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
// JSON inside <script>: '<' escaped, so no "</script>" in a token label can end the element.
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The attributes besides the data: [name, value | true]. */
function figureAttributes(state, { stages, backward }) {
  const attributes = [];
  if (state.view !== 'matrix') attributes.push(['view', state.view]);
  if (state.view === 'matrix' && stages?.length) attributes.push(['stages', stages.join(' ')]);
  if (backward) attributes.push(['backward', true]);
  return attributes;
}

const attributeText = (attributes) =>
  attributes.map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeAttribute(String(value))}"`)).join('');

export function elementSnippet(state, { stages = null, backward = false, scriptUrl, lang = 'en' }) {
  const attributes = [...(lang === 'en' ? [] : [['lang', lang]]), ...figureAttributes(state, { stages, backward })];
  const script = `<script type="module" src="${escapeAttribute(scriptUrl)}"></script>`;
  if (isPlainPreset(state)) {
    const extra = state.head ? [['head', state.head]] : [];
    return `${script}\n<attn-figure preset="${state.preset}"${attributeText([...attributes, ...extra])}></attn-figure>\n`;
  }
  return `${script}\n<attn-figure${attributeText(attributes)}>\n  <script type="application/json">${scriptJson(figureState(state))}</script>\n</attn-figure>\n`;
}

export function embedHash(state, { stages = null, backward = false } = {}) {
  const params = figureAttributes(state, { stages, backward })
    .filter(([name]) => name !== 'view') // the view is in the state
    .map(([name, value]) => (value === true ? name : `${name}=${encodeURIComponent(value)}`));
  return [encodeState(figureState(state)), ...params].join('&');
}

export function iframeSnippet(state, { stages = null, backward = false, embedUrl, lang = 'en' }) {
  const src = `${embedUrl}${lang === 'en' ? '' : `?lang=${lang}`}${embedHash(state, { stages, backward })}`;
  return `<iframe src="${escapeAttribute(src)}" title="Attention figure (attention-lab)" loading="lazy" style="width: 100%; height: 420px; border: 0"></iframe>
<script>
  // Sizes attention-lab iframes to their figures (the embed page posts its height).
  ${HEIGHT_LISTENER}
</script>
`;
}

/**
 * The host of `url` ('127.0.0.1:8080') when it is this machine (localhost, 127.x.x.x, [::1],
 * 0.0.0.0) or the url itself for a file: a snippet with it works only here; null for any other.
 */
export function localHost(url) {
  const { protocol, hostname, host } = new URL(url);
  if (protocol === 'file:') return url;
  return /^(localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0)$/.test(hostname) ? host : null;
}
