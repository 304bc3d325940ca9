// The one place where user input becomes a tensor { data, shape } (dense, row-major).
// Accepted: { data, shape } with any numeric typed array or number[] as data, a bare typed
// array (rank 1), or nested number arrays (their nesting is the shape). Structure and element
// types are checked here; value ranges (NaN, Infinity) are the caller's choice (validate.js).
// Hostile input: `data` and `shape` are read once each (a getter or Proxy may answer differently
// every time), a typed array is measured by its internal length (typed.js), and one is shared
// rather than copied only when it is a plain array of the wanted type over a fixed-size buffer.
// The arena (memory.js) checks the data against the shape again when it copies it in.
// `data` and `shape` are read only where the object or its class defines them (fieldOf): never
// from a polluted Object.prototype. Nested arrays are measured from their lengths, and refused
// when too large, before anything is allocated for them.
import { isDetached, sharedAs, typedKind, typedLength } from './typed.js';
import { describe, got, withApiMessage } from './api-message.js';

const MAX_NESTING = 16; // far beyond rank 4: only guards against cyclic or absurd input
// The most a tensor of nested arrays may hold: what one wasm call can place (memory.js's arena
// limit, 2 GiB - 64 KiB). A row reused in every row is few arrays but many numbers: 2^15 rows of
// one 2^15-number row are 256 KiB of arrays and 4 GiB of float32.
const MAX_NESTED_BYTES = 2 ** 31 - 64 * 1024;

/** Number of elements of a shape. */
export function shapeSize(shape) {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

/** "[2, 3, 4]" */
export function formatShape(shape) {
  return `[${shape.join(', ')}]`;
}

/** A result tensor; `data` is a fresh array owned by the caller (or the caller's own options.out). */
export function tensor(data, shape) {
  return { data, shape: [...shape] };
}

/**
 * value[key] (read once) when value itself or its class defines key (a class instance's getter
 * counts), else undefined. The root of the prototype chain is never read: a name inherited from
 * Object.prototype (of any realm), which any code may have polluted, is no field of a tensor.
 */
export function fieldOf(value, key) {
  for (let object = value; object !== null;) {
    const proto = Object.getPrototypeOf(object);
    if (proto === null && object !== value) return undefined;
    if (Object.hasOwn(object, key)) return value[key];
    object = proto;
  }
  return undefined;
}

/** A TypeError when `array` is a typed array whose buffer was transferred away; `what` names it. */
export function expectAttached(array, what) {
  if (typedKind(array) !== undefined && isDetached(array)) {
    throw new TypeError(`${what} is detached: its buffer was transferred (postMessage or structuredClone with transfer) and holds no data`);
  }
}

/** A real typed array of numbers (not a DataView, not a Proxy that claims to be one). */
function isNumericView(value) {
  return typedKind(value) !== undefined;
}

/** data -> ArrayType; a plain array of ArrayType passes through uncopied (sharedAs). */
function toArrayType(data, name, ArrayType) {
  if (sharedAs(data, ArrayType)) return data;
  const kind = typedKind(data);
  if (kind !== undefined) {
    if (kind === 'BigInt64Array' || kind === 'BigUint64Array') {
      throw new TypeError(`${name}: data must hold numbers, got a ${kind} (convert the BigInts first)`);
    }
    return new ArrayType(data); // reads the source by its internal slots
  }
  if (!Array.isArray(data)) {
    throw withApiMessage(new TypeError(`${name}: data must be a typed array or an array of numbers, got ${describe(data)}`), 'tensor-data', {
      name,
      got: got(data),
    });
  }
  const length = data.length; // once: a Proxy's length may change on every read
  const out = new ArrayType(length);
  for (let i = 0; i < length; i++) {
    const x = data[i];
    if (typeof x !== 'number')
      throw withApiMessage(new TypeError(`${name}: data[${i}] must be a number, got ${describe(x)}`), 'tensor-number', {
        path: `${name}: data[${i}]`,
        got: got(x),
      });
    out[i] = x;
  }
  return out;
}

function checkShape(shape, name) {
  if (!Array.isArray(shape) && !isNumericView(shape)) {
    throw withApiMessage(new TypeError(`${name}: shape must be an array of sizes, got ${describe(shape)}`), 'tensor-shape-type', { name, got: got(shape) });
  }
  expectAttached(shape, `${name}.shape`);
  const dims = Array.from(shape);
  for (const s of dims) {
    if (!Number.isSafeInteger(s) || s < 0) {
      throw withApiMessage(new RangeError(`${name}: shape ${formatShape(dims)} must hold non-negative integers`), 'tensor-shape', {
        name,
        shape: formatShape(dims),
      });
    }
  }
  return dims;
}

/** Shape of nested arrays, read along the first elements; flatten() checks every other path. */
function nestedShape(value, name) {
  const shape = [];
  let node = value;
  while (Array.isArray(node)) {
    if (shape.length === MAX_NESTING) throw new TypeError(`${name}: arrays nested more than ${MAX_NESTING} deep`);
    shape.push(node.length);
    node = node[0];
  }
  return shape;
}

/**
 * Refuses nested arrays that would hold more than MAX_NESTED_BYTES of ArrayType, or as many rows
 * (arrays of numbers: a shape [.., 0] has no numbers but every row is still visited), from the
 * shape alone, before anything is allocated or walked.
 */
function expectNestedFits(shape, name, ArrayType) {
  const most = Math.floor(MAX_NESTED_BYTES / ArrayType.BYTES_PER_ELEMENT);
  const numbers = shapeSize(shape);
  const rows = shapeSize(shape.slice(0, -1));
  const [count, what] = numbers > most ? [numbers, 'numbers'] : [rows, 'rows'];
  if (count > most) {
    throw new RangeError(
      `${name}: nested arrays of shape ${formatShape(shape)} hold ${count} ${what}, more than the ${most} one tensor may hold (2 GiB as a ${ArrayType.name})`,
    );
  }
}

// `path` names the node in messages: q[1][0].
function raggedError(node, shape, depth, path) {
  const error = new RangeError(
    `${path} must be an array of ${shape[depth]} elements like its siblings (ragged nested array), got ${Array.isArray(node) ? `${node.length} elements` : describe(node)}`,
  );
  return Array.isArray(node)
    ? withApiMessage(error, 'tensor-ragged', { path, count: shape[depth], length: node.length })
    : withApiMessage(error, 'tensor-ragged-item', { path, count: shape[depth], got: got(node) });
}

/** Every array of the nesting has its axis's length: a ragged one is refused before the data is allocated. */
function expectRectangular(node, shape, depth, path) {
  if (!Array.isArray(node) || node.length !== shape[depth]) throw raggedError(node, shape, depth, path);
  if (depth === shape.length - 1) return;
  for (let i = 0; i < node.length; i++) expectRectangular(node[i], shape, depth + 1, `${path}[${i}]`);
}

// Checks the lengths again: an array (a Proxy of one) may answer differently on a second read.
function flatten(node, shape, depth, path, out, offset) {
  if (!Array.isArray(node) || node.length !== shape[depth]) throw raggedError(node, shape, depth, path);
  if (depth === shape.length - 1) {
    for (let i = 0; i < node.length; i++) {
      const x = node[i];
      if (typeof x !== 'number')
        throw withApiMessage(new TypeError(`${path}[${i}] must be a number, got ${describe(x)}`), 'tensor-number', { path: `${path}[${i}]`, got: got(x) });
      out[offset + i] = x;
    }
    return;
  }
  const stride = shapeSize(shape.slice(depth + 1));
  for (let i = 0; i < node.length; i++) flatten(node[i], shape, depth + 1, `${path}[${i}]`, out, offset + i * stride);
}

/** The checked shape (a copy) of `shape` read from a tensor: non-negative integers. */
export function tensorShape(shape, name) {
  return checkShape(shape, name);
}

/** Converted data (a typed array this module vetted) must hold the shape's elements. */
export function expectDataFits(data, shape, name) {
  const length = typedLength(data);
  if (length !== shapeSize(shape)) {
    const error = new RangeError(`${name}: data has ${length} elements but shape ${formatShape(shape)} needs ${shapeSize(shape)}`);
    throw withApiMessage(error, 'tensor-length', { name, length, shape: formatShape(shape), needs: shapeSize(shape) });
  }
}

const TypedArray = Object.getPrototypeOf(Float32Array);

/**
 * TensorLike -> { data: ArrayType, shape: number[] }, checking structure and element types.
 * `name` is the argument's name in error messages. Data already of ArrayType is shared, not copied.
 * Public (to-tensor.js): name and ArrayType are checked too, since a user may pass anything.
 */
export function toTensor(value, name = 'toTensor: value', ArrayType = Float32Array) {
  if (typeof name !== 'string') throw new TypeError(`toTensor: name must be a string, got ${typeof name}`);
  if (typeof ArrayType !== 'function' || Object.getPrototypeOf(ArrayType) !== TypedArray || /^Big/.test(ArrayType.name)) {
    throw new TypeError(
      `toTensor: ArrayType must be a typed array constructor of numbers (Float32Array, Uint8Array, ...), got ${ArrayType?.name ?? ArrayType}`,
    );
  }
  if (value === undefined || value === null) {
    throw withApiMessage(new TypeError(`${name} is required: a tensor { data, shape } or nested arrays of numbers, got ${value}`), 'tensor-required', {
      name,
      got: got(value),
    });
  }
  if (Array.isArray(value)) {
    const shape = nestedShape(value, name);
    expectNestedFits(shape, name, ArrayType);
    expectRectangular(value, shape, 0, name);
    const data = new ArrayType(shapeSize(shape));
    flatten(value, shape, 0, name, data, 0);
    return { data, shape };
  }
  if (isNumericView(value)) {
    expectAttached(value, name);
    const data = toArrayType(value, name, ArrayType);
    return { data, shape: [typedLength(data)] };
  }
  const given = typeof value === 'object' ? { data: fieldOf(value, 'data'), shape: fieldOf(value, 'shape') } : {}; // each read once
  if (given.data !== undefined && given.shape !== undefined) {
    expectAttached(given.data, `${name}.data`);
    const shape = checkShape(given.shape, name);
    const data = toArrayType(given.data, name, ArrayType);
    expectDataFits(data, shape, name);
    return { data, shape };
  }
  throw withApiMessage(new TypeError(`${name} must be a tensor { data, shape } or nested arrays of numbers, got ${describe(value)}`), 'tensor', {
    name,
    got: got(value),
  });
}
