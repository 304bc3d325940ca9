// Reading the elements' attributes as typed values. HTML attributes are strings; these helpers
// turn them into what the figure functions take, and name the attribute in every error, so a
// typo shows up in the figure as "valid-lens: ..." rather than as a different figure.

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
    throw new TypeError(`${name}: not valid JSON (${error.message})`, { cause: error });
  }
}

/** The JSON of a child <script type="application/json">, or null when there is none. */
export function childJson(element) {
  const script = [...element.children].find((c) => c.localName === 'script' && c.type === 'application/json');
  if (!script) return null;
  try {
    return JSON.parse(script.textContent);
  } catch (error) {
    throw new TypeError(`<script type="application/json">: not valid JSON (${error.message})`, { cause: error });
  }
}

// The keys of a child <script type="application/json"> are checked as strictly as attributes: a
// wrong type names the key ("colLabels must be an array of strings, got object").
const kindOf = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** A child JSON's labels (strings; numbers read as their text) -> string[], or undefined when absent. */
export function labelList(value, name) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array of strings, got ${kindOf(value)}`);
  const bad = value.findIndex((label) => typeof label !== 'string' && !Number.isFinite(label));
  if (bad >= 0) throw new TypeError(`${name} must be an array of strings, got an array holding ${kindOf(value[bad])} at ${bad}`);
  return value.map(String);
}

/** A child JSON's string, or undefined when absent. */
export function textValue(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${kindOf(value)}`);
  return value;
}

/** A child JSON's true or false, or undefined when absent. */
export function booleanValue(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${kindOf(value)}`);
  return value;
}

/** A list attribute ("a, b c" or a JSON array) -> string[], or undefined when absent. */
export function words(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  if (text.trim().startsWith('[')) {
    const list = json(element, name);
    if (!Array.isArray(list)) throw new TypeError(`${name}: expected a list, got ${text}`);
    return list.map(String);
  }
  return text.split(/[\s,]+/).filter(Boolean);
}

/** An integer attribute, or undefined when absent. */
export function integer(element, name) {
  const text = element.getAttribute(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value)) throw new TypeError(`${name}: expected an integer, got "${text}"`);
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
    throw new TypeError(`${name}: expected numbers like "2 6" or [[1, 2, 3]], got "${raw}"`);
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
    throw new TypeError(`${name}: expected two integers >= -1 like "2 0" (left, right; -1 = no limit), got "${raw}"`);
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
  throw new TypeError(`${name}: expected present, "paper", "off" or one slope per head like "0.5 0.25", got "${raw}"`);
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
  throw new TypeError(`${name}: expected present, "halves", "interleaved", "off" or JSON { "base", "interleaved" }, got "${raw}"`);
}
