// Reading the elements' attributes as typed values. HTML attributes are strings; these helpers
// turn them into what the figure functions take, and name the attribute in every error, so a
// typo shows up in the figure as "valid-lens: ..." rather than as a different figure.

// Their errors are figureError()s: the element shows them in its language (figure-element.js).
import { figureError } from '../i18n/figure-text.js';
import { refuseRenamed, renamedError } from '../src/boundary/renamed.js';

/**
 * Refuses the attributes (and, given `child`, the child JSON keys) renamed before 1.0, each map
 * old -> new, naming both (CHANGELOG.md), rather than drawing a figure without them.
 */
export function refuseRenamedNames(element, attributes, child = null, keys = {}) {
  for (const old of Object.keys(attributes)) {
    if (element.hasAttribute(old)) throw renamedError('', old, attributes[old], 'attribute');
  }
  refuseRenamed('<script type="application/json">', child, keys, 'key');
}

/** A boolean attribute: present (or "true") is true, absent or "false" is false. */
export function flag(element, name) {
  const value = element.getAttribute(name);
  return value !== null && value.trim().toLowerCase() !== 'false';
}

/** A JSON attribute, or null when absent; throws a TypeError naming the attribute. */
export function json(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw Object.assign(figureError(TypeError, 'figure.error.json', { name, detail: error.message }), { cause: error });
  }
}

/** The JSON of a child <script type="application/json">, or null when there is none. */
export function childJson(element) {
  const script = [...element.children].find((c) => c.localName === 'script' && c.type === 'application/json');
  if (!script) return null;
  try {
    return JSON.parse(script.textContent);
  } catch (error) {
    throw Object.assign(figureError(TypeError, 'figure.error.child-json', { detail: error.message }), { cause: error });
  }
}

// The keys of a child <script type="application/json"> are checked as strictly as attributes: a
// wrong type names the key ("colLabels must be an array of strings, got object").
const kindOf = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** A child JSON's labels (strings; numbers read as their text) -> string[], or undefined when absent. */
export function labelList(value, name) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw figureError(TypeError, 'figure.error.labels', { name, got: kindOf(value) });
  const bad = value.findIndex((label) => typeof label !== 'string' && !Number.isFinite(label));
  if (bad >= 0) throw figureError(TypeError, 'figure.error.labels-item', { name, got: kindOf(value[bad]), index: bad });
  return value.map(String);
}

/** A child JSON's string, or undefined when absent. */
export function textValue(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw figureError(TypeError, 'figure.error.string', { name, got: kindOf(value) });
  return value;
}

/** A child JSON's true or false, or undefined when absent. */
export function booleanValue(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw figureError(TypeError, 'figure.error.boolean', { name, got: kindOf(value) });
  return value;
}

/** A list attribute ("a, b c" or a JSON array) -> string[], or undefined when absent. */
export function words(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  if (text.trim().startsWith('[')) {
    const list = json(element, name);
    if (!Array.isArray(list)) throw figureError(TypeError, 'figure.error.list', { name, got: text });
    return list.map(String);
  }
  return text.split(/[\s,]+/).filter(Boolean);
}

/** An integer attribute, or undefined when absent. */
export function integer(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value)) throw figureError(TypeError, 'figure.error.integer', { name, got: text });
  return value;
}

/** A string attribute, or undefined when absent. */
export function text(element, name) {
  const value = element.getAttribute(name);
  return value === null ? undefined : value.trim();
}

/** valid-lens: "2 6" or "[2, 6]" (per batch) or "[[1, 2, 3]]" (per query row). */
export function validLens(element, name = 'valid-lens') {
  const raw = element.getAttribute(name);
  if (raw === null) return undefined;
  if (raw.trim() === '' || raw.trim() === 'none') return null;
  const value = raw.trim().startsWith('[')
    ? json(element, name)
    : raw
        .trim()
        .split(/[\s,]+/)
        .map(Number);
  const flat = Array.isArray(value) ? value.flat() : [value];
  if (!Array.isArray(value) || flat.some((x) => typeof x !== 'number' || Number.isNaN(x))) {
    throw figureError(TypeError, 'figure.error.valid-lens', { name, got: raw });
  }
  return value;
}

/** mask-fill: a number as the API's maskFill ("-1e6", d2l's fill), or "none" -> null. */
export function maskFill(element, name = 'mask-fill') {
  const raw = element.getAttribute(name);
  if (raw === null) return undefined;
  const text = raw.trim();
  if (text === '' || text === 'none') return null;
  const value = Number(text);
  if (Number.isNaN(value)) {
    const was = { zero: 'none', d2l: '-1e6' }[text];
    throw figureError(TypeError, was ? 'figure.error.mask-fill-renamed' : 'figure.error.mask-fill', { name, got: raw, old: text, now: was });
  }
  return value;
}

/** causal: absent -> undefined, present/"true" -> true, "false"/"none" -> false, else the mode. */
export function causal(element, name = 'causal') {
  const raw = element.getAttribute(name);
  if (raw === null) return undefined;
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'true' || value === name) return true;
  if (value === 'false') return false;
  return value;
}

/** window: "2 0" or "[2, 0]" -> [left, right] (integers >= -1; -1: no limit); "none" -> null. */
export function slidingWindow(element, name = 'window') {
  const raw = element.getAttribute(name);
  if (raw === null) return undefined;
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed === 'none') return null;
  const value = trimmed.startsWith('[') ? json(element, name) : trimmed.split(/[\s,]+/).map(Number);
  if (!Array.isArray(value) || value.length !== 2 || !value.every((x) => Number.isInteger(x) && x >= -1)) {
    throw figureError(TypeError, 'figure.error.window', { name, got: raw });
  }
  return value;
}

/**
 * alibi: present/"true"/"paper" -> true (the paper's slopes), "false"/"off" -> false, numbers
 * "0.5 0.25" or "0.5, 0.25" -> [0.5, 0.25] (one slope per head; the figure spec checks their
 * count against the heads and their range, and names the attribute when they are wrong).
 */
export function alibi(element, name = 'alibi') {
  const raw = element.getAttribute(name);
  if (raw === null) return undefined;
  const value = raw.trim().toLowerCase();
  if (['', 'true', 'paper', name].includes(value)) return true;
  if (value === 'false' || value === 'off') return false;
  const words = value.split(/[\s,]+/).filter(Boolean);
  // Number('') and Number('0x10') read as numbers; a slope is written in decimal.
  if (words.every((w) => /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(w))) return words.map(Number);
  throw figureError(TypeError, 'figure.error.alibi', { name, got: raw });
}

/**
 * rope: present/"true"/"halves" -> { interleaved: false }, "interleaved" -> { interleaved: true },
 * "false"/"off" -> false; JSON { "base": 500, "interleaved": true } for another base.
 */
export function rope(element, name = 'rope') {
  const raw = element.getAttribute(name);
  if (raw === null) return undefined;
  const value = raw.trim().toLowerCase();
  if (['', 'true', 'halves', name].includes(value)) return { interleaved: false };
  if (value === 'interleaved') return { interleaved: true };
  if (value === 'false' || value === 'off') return false;
  if (value.startsWith('{')) return json(element, name);
  throw figureError(TypeError, 'figure.error.rope', { name, got: raw });
}
