// A transformer's configuration as users give it (index.d.ts TransformerConfig), checked and
// turned into the binding's TransformerArgs (cpp/bindings/args.hpp). Each message names the option.
import { expectKnownOptions, ropeBaseOption } from '../boundary/validate.js';
import { got, optionName, withApiMessage } from '../boundary/api-message.js';

const POSITIONS = ['learned', 'rope', 'alibi', 'none']; // the core's Positions, in its order
const GELUS = ['none', 'tanh']; // the core's Gelu: PyTorch's approximate='none' | 'tanh'
const KNOWN = ['vocab', 'dModel', 'layers', 'heads', 'kvHeads', 'maxLength', 'positions', 'rope', 'alibi', 'window', 'mlp', 'gelu', 'tie', 'seed'];
const MAX_SIZE = 2 ** 30; // any larger size is refused by the memory checks anyway; keeps every field an int32

function integer(fn, opts, key, { min, fallback }) {
  const x = opts[key];
  if (x === undefined) {
    if (fallback !== undefined) return fallback;
    throw withApiMessage(new TypeError(`${fn}: ${key} is required (an integer >= ${min})`), 'config-required', { fn, key: optionName(key), min });
  }
  if (typeof x !== 'number') {
    throw withApiMessage(new TypeError(`${fn}: ${key} must be an integer >= ${min}, got ${typeof x} ${String(x)}`), 'config-integer', {
      fn,
      key,
      min,
      got: got(x),
    });
  }
  if (!Number.isInteger(x) || x < min || x > MAX_SIZE) {
    throw withApiMessage(new RangeError(`${fn}: ${key} must be an integer >= ${min}, got ${x}`), 'config-integer', {
      fn,
      key: optionName(key),
      min,
      got: got(x),
    });
  }
  return x;
}

function choice(fn, opts, key, names, fallback) {
  const x = opts[key] ?? fallback;
  const quoted = names.map((n) => `'${n}'`);
  if (x === undefined)
    throw withApiMessage(new TypeError(`${fn}: ${key} is required (one of ${quoted.join(', ')})`), 'config-choice', {
      fn,
      key: optionName(key),
      names: quoted,
      got: got(x),
    });
  if (!names.includes(x)) {
    throw withApiMessage(new RangeError(`${fn}: ${key} must be one of ${quoted.join(', ')}, got ${String(x)}`), 'config-choice', {
      fn,
      key,
      names: quoted,
      got: got(x),
    });
  }
  return names.indexOf(x);
}

/**
 * The checked configuration -> { args: TransformerArgs, config: what model.config shows }.
 * Sizes: vocab, dModel, layers, heads, maxLength >= 1; kvHeads divides heads (default heads);
 * heads divides dModel; rope needs an even head width. rope: true or { base } with positions
 * 'rope'; alibi: true (Press et al.'s slopes) with positions 'alibi'; window w >= 1: query t sees
 * keys t - w + 1 .. t; mlp: the hidden width, 0 attention-only; gelu 'none' | 'tanh'.
 */
export function transformerConfig(fn, config) {
  if (config === null || typeof config !== 'object') {
    throw new TypeError(
      `${fn}: the configuration must be an object { vocab, dModel, layers, heads, maxLength, positions, mlp, ... }, got ${config === null ? 'null' : typeof config}`,
    );
  }
  const opts = expectKnownOptions(fn, config, KNOWN);
  const vocab = integer(fn, opts, 'vocab', { min: 1 });
  const dModel = integer(fn, opts, 'dModel', { min: 1 });
  const layers = integer(fn, opts, 'layers', { min: 1 });
  const heads = integer(fn, opts, 'heads', { min: 1 });
  const kvHeads = integer(fn, opts, 'kvHeads', { min: 1, fallback: heads });
  const maxLength = integer(fn, opts, 'maxLength', { min: 1 });
  const positions = choice(fn, opts, 'positions', POSITIONS);
  const mlp = integer(fn, opts, 'mlp', { min: 0 });
  const window = integer(fn, opts, 'window', { min: 1, fallback: 0 });
  const gelu = choice(fn, opts, 'gelu', GELUS, 'none');
  const seed = opts.seed ?? 0;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`${fn}: seed must be an integer in [0, 2^53), got ${String(seed)}`);
  }
  const tie = opts.tie ?? false;
  if (typeof tie !== 'boolean') throw new TypeError(`${fn}: tie must be true or false, got ${typeof tie} ${String(tie)}`);
  multiple(fn, 'dModel', dModel, 'heads', heads);
  multiple(fn, 'heads', heads, 'kvHeads', kvHeads);
  const ropeBase = ropeOption(fn, opts, positions, dModel / heads);
  if (opts.alibi !== undefined && !(opts.alibi === true && POSITIONS[positions] === 'alibi')) {
    throw new RangeError(`${fn}: alibi must be true (Press et al.'s slopes) and only with positions 'alibi', got ${String(opts.alibi)}`);
  }
  const args = { vocab, dModel, layers, heads, kvHeads, maxLength, positions, ropeBase, window, mlp, gelu, tie, seed };
  const shown = { vocab, dModel, layers, heads, kvHeads, maxLength, positions: POSITIONS[positions], mlp, gelu: GELUS[gelu], tie, seed };
  if (POSITIONS[positions] === 'rope') shown.rope = { base: ropeBase };
  if (window > 0) shown.window = window;
  return { args, config: Object.freeze(shown) };
}

/** `size` (named `name`) a multiple of `of` (named `ofName`), else a RangeError naming both. */
function multiple(fn, name, size, ofName, of) {
  if (size % of === 0) return;
  const message = `${fn}: ${name} must be a multiple of ${ofName}, got ${name} = ${size}, ${ofName} = ${of}`;
  throw withApiMessage(new RangeError(message), 'config-multiple', { fn, name: optionName(name), size, ofName: optionName(ofName), of });
}

/** The rotary base: rope true or { base } with positions 'rope' (pairs (c, c + dh/2), rotate_half). */
function ropeOption(fn, opts, positions, headWidth) {
  const isRope = POSITIONS[positions] === 'rope';
  if (isRope && headWidth % 2 !== 0) {
    throw withApiMessage(new RangeError(`${fn}: rope needs an even head width dModel / heads, got ${headWidth}`), 'config-rope-width', {
      fn,
      width: headWidth,
    });
  }
  const given = opts.rope;
  if (given === undefined) return 10000;
  if (!isRope) throw new RangeError(`${fn}: rope is an option of positions 'rope', got positions '${POSITIONS[positions]}'`);
  if (given === true) return 10000;
  if (given === null || typeof given !== 'object') throw new TypeError(`${fn}: rope must be true or { base }, got ${given === null ? 'null' : typeof given}`);
  return ropeBaseOption(`${fn}: rope`, expectKnownOptions(`${fn}: rope`, given, ['base']));
}
