// An API error's message as data, so that a page can say it in its reader's language
// (web/i18n/figure-text.js errorText): error.apiMessage = { code, params }, `code` naming the
// message ('renamed', 'tensor-ragged') and `params` its parts (names, sizes; a value as got(value)).
// The property is not enumerable: the error compares, prints and reads in English as before.

/** `error` with its apiMessage { code, params } attached; returns the error. */
export function withApiMessage(error, code, params) {
  return Object.defineProperty(error, 'apiMessage', { value: { code, params }, configurable: true });
}

/** An option's or a field's name as a param: said in the reader's words where the catalog has them (error.option.*). */
export const optionName = (name) => ({ kind: 'option', detail: name });

/**
 * What a value is, as the messages name it: { kind, detail } with kind one of null, array, typed
 * (detail: its class), object (detail: its keys), string (detail: the string), or the typeof of
 * any other value (detail: String(value)).
 */
export function got(value) {
  if (value === null) return { kind: 'null', detail: '' };
  if (Array.isArray(value)) return { kind: 'array', detail: '' };
  if (ArrayBuffer.isView(value)) return { kind: 'typed', detail: value.constructor.name };
  if (typeof value === 'object') return { kind: 'object', detail: Object.keys(value).join(', ') };
  if (typeof value === 'string') return { kind: 'string', detail: value };
  return { kind: typeof value, detail: String(value) };
}

/** got(value) in English: 'null', 'an array', 'a Float32Array', "the string 'x'", 'number 5'. */
export function describe(value) {
  const { kind, detail } = got(value);
  if (kind === 'null') return 'null';
  if (kind === 'array') return 'an array';
  if (kind === 'typed') return `a ${detail}`;
  if (kind === 'object') return `an object with keys [${detail}]`;
  if (kind === 'string') return `the string '${detail}'`;
  return `${kind} ${detail}`;
}
