// The state in the URL: `#s=<base64url of the JSON state>` holds everything (copy the address
// and the page restores it exactly); `?preset=seed-004` (seed-002, d2l, sentence, sliding-window, alibi, rotary, decode, random) picks
// a preset when there is no state in the hash; `?lang=zh-CN` (or en) the page's language, which
// every link the page hands out keeps. JSON keeps every number as typed; base64url keeps the hash
// free of characters that chat apps and markdown mangle.
import { knownLanguage } from '../i18n/index.js';
import { conformPage } from './page-state.js';

const PREFIX = 's=';

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(code) {
  const binary = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The hash that restores `state` ('#s=...'). */
export function encodeState(state) {
  return `#${PREFIX}${toBase64Url(JSON.stringify(state))}`;
}

/** The state in a hash, conformed; null when there is none; throws on a damaged one. */
export function decodeState(hash) {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!body.startsWith(PREFIX)) return null;
  const raw = JSON.parse(fromBase64Url(body.slice(PREFIX.length)));
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new TypeError('the state in the link is not an object');
  return conformPage(raw);
}

/** What a location asks for: { state } from the hash, or { preset } from ?preset=, or {}. */
export function readLocation(location) {
  const state = decodeState(location.hash);
  if (state) return { state };
  const preset = new URLSearchParams(location.search).get('preset');
  return preset ? { preset } : {};
}

/** The language a location asks for with ?lang= ('en', 'zh-CN'), or null. */
export const languageOf = (location) => knownLanguage(new URLSearchParams(location.search).get('lang'));

/** The shareable URL of a state: this page, ?preset=<its preset>&lang=<lang>, and the state in the hash. */
export function shareUrl(location, state, lang) {
  const url = new URL(location.href);
  // The lab's address keeps its view, so that a reload or a shared link opens the lab again.
  const view = url.searchParams.get('view') === 'lab' ? '&view=lab' : '';
  url.search = `?preset=${encodeURIComponent(state.preset)}${lang ? `&lang=${lang}` : ''}${view}`;
  url.hash = encodeState(state);
  return url.href;
}
