// SVG and HTML as strings, for files written without a DOM: one element builder, escaping in one place.
import { showControls } from './controls.js';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text or an attribute value, escaped; control characters shown as pictures (XML has no place for them). */
export const escape = (text) => showControls(text).replace(/[&<>"]/g, (c) => ESCAPES[c]);

const attributes = (attrs) =>
  Object.entries(attrs)
    .filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? v : escape(v)}"`) // a number needs no escaping: most attributes of a cell
    .join('');

/** The opening tag <tag a="v"> alone, for an element whose content is written as chunks after it. */
export const openTag = (tag, attrs = {}) => `<${tag}${attributes(attrs)}>`;

/**
 * <tag a="v">inner</tag>: attributes escaped (null, undefined and false left out); `inner` is
 * markup (el() output, or escape() of a text), joined when it is a list.
 */
export function el(tag, attrs = {}, inner = '') {
  const body = Array.isArray(inner) ? inner.join('') : inner;
  return body === '' ? `<${tag}${attributes(attrs)}/>` : `${openTag(tag, attrs)}${body}</${tag}>`;
}
