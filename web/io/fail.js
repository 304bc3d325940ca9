// The io entry's one error shape: "readTensors(attn.npy): <problem>", a TypeError for the wrong
// kind of content (not numbers, an object array, a pickle) and a RangeError for sizes and offsets
// that do not add up (truncation, overlaps, a shape that does not match the bytes).
export const HEADER_LIMIT = 100 * 1024 * 1024; // as safetensors' own reader: a larger header is hostile, not a model
export const DEFAULT_MAX_BYTES = 2 ** 30; // readTensors' maxBytes: 1 GiB unpacked from one file unless the caller raises it

// Each error also carries a non-enumerable apiMessage { code, params } (as the API's do,
// web/src/boundary/api-message.js) so that a page can say it in its reader's language: a code of
// its own for the problems a reader meets most, 'file-unreadable' (with the file's name) for the rest.
export class FileProblem {
  constructor(fn, file) {
    this.fn = fn;
    this.file = file;
    this.prefix = `${fn}(${file})`;
  }
  type(problem, code, params) {
    return this.#coded(new TypeError(`${this.prefix}: ${problem}`), code, params);
  }
  range(problem, code, params) {
    return this.#coded(new RangeError(`${this.prefix}: ${problem}`), code, params);
  }
  #coded(error, code = 'file-unreadable', params = {}) {
    const apiMessage = { code, params: { fn: this.fn, file: this.file, ...params } };
    return Object.defineProperty(error, 'apiMessage', { value: apiMessage, configurable: true });
  }
}

/**
 * What one file may unpack into (readTensors' options.maxBytes): the float32 data of its tensors,
 * 4 bytes an element, spent as each header promises it, before that tensor is decoded.
 */
export class OutputBudget {
  constructor(limit, problem) {
    this.limit = limit;
    this.spent = 0;
    this.problem = problem;
  }
  spend(bytes, what) {
    this.spent += bytes;
    if (this.spent > this.limit) {
      throw this.problem.range(
        `${what} brings the tensors to ${this.spent} bytes of float32 data, over the limit of ${this.limit} bytes (options.maxBytes)`,
        'file-too-big',
        { size: this.spent, limit: this.limit },
      );
    }
  }
}

/** "[2, 3]" */
export const formatShape = (shape) => `[${shape.join(', ')}]`;

/**
 * The element count of a shape read from a file: every size a safe non-negative integer, and the
 * product checked as it grows, so [2**40, 2**40] is refused instead of overflowing to a wrong count.
 */
export function elementCount(shape, where, problem) {
  let n = 1;
  for (const s of shape) {
    if (!Number.isSafeInteger(s) || s < 0) throw problem.range(`${where}: shape ${formatShape(shape)} must hold non-negative integers`);
    n *= s;
    if (n > Number.MAX_SAFE_INTEGER) throw problem.range(`${where}: shape ${formatShape(shape)} has more elements than any file can hold`);
  }
  return n;
}

/** Adds `name` as an own property, so a tensor named '__proto__' stays a tensor, not a prototype. */
export function defineEntry(target, name, value) {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** The tokens of a file: an array of strings, or a TypeError naming where they came from. */
export function checkTokens(tokens, where, problem) {
  if (!Array.isArray(tokens)) throw problem.type(`${where} must be a list of strings, got ${typeof tokens}`);
  for (let i = 0; i < tokens.length; i++) {
    if (typeof tokens[i] !== 'string') throw problem.type(`${where}[${i}] must be a string, got ${tokens[i] === null ? 'null' : typeof tokens[i]}`);
  }
  return [...tokens];
}

/** A file's metadata: an object of strings (safetensors' __metadata__, a JSON `metadata`). */
export function stringMap(value, where, problem) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw problem.type(`${where} must be an object of strings`);
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw problem.type(`${where}.${key} must be a string, got ${v === null ? 'null' : typeof v}`);
    defineEntry(out, key, v);
  }
  return out;
}
