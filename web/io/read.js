// readTensors(bytes, { name, format, maxBytes }) -> Promise<{ tensors, tokens?, metadata? }>: the
// format comes from `format`, else the file name's extension, else the magic bytes; every reader
// returns fresh Float32Arrays in C order and leaves the caller's bytes untouched, and checks the
// sizes its headers declare against maxBytes before it inflates or decodes anything.
import { DEFAULT_MAX_BYTES, FileProblem, OutputBudget } from './fail.js';
import { parseNpy, NPY_MAGIC } from './npy.js';
import { readNpz } from './npz.js';
import { readSafetensors, safetensorsHeaderLength } from './safetensors.js';
import { readJson } from './json.js';

const FN = 'readTensors';
const FORMATS = ['npy', 'npz', 'safetensors', 'json'];
const PICKLES = /\.(pt|pth|pkl|pickle|ckpt|bin)$/i; // torch.save and pickle.dump files: code, not data

const OPTIONS = ['name', 'format', 'maxBytes'];

/** An own data property of options (never a getter, never inherited from a polluted prototype). */
function ownOption(options, key, type) {
  const d = Object.getOwnPropertyDescriptor(options, key);
  if (!d) return undefined;
  if (!('value' in d)) throw new TypeError(`${FN}: options.${key} must be a plain value, not a getter`);
  if (d.value !== undefined && typeof d.value !== type)
    throw new TypeError(`${FN}: options.${key} must be a ${type}, got ${d.value === null ? 'null' : typeof d.value}`);
  return d.value;
}

function readOptions(options) {
  if (options === undefined) return { maxBytes: DEFAULT_MAX_BYTES };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${FN}: options must be an object { name?, format?, maxBytes? }, got ${options === null ? 'null' : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new TypeError(`${FN}: unknown option '${key}' (known: ${OPTIONS.join(', ')})`);
  }
  const name = ownOption(options, 'name', 'string');
  const format = ownOption(options, 'format', 'string');
  if (format !== undefined && !FORMATS.includes(format))
    throw new TypeError(`${FN}: options.format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const maxBytes = ownOption(options, 'maxBytes', 'number') ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new RangeError(`${FN}: options.maxBytes must be a positive whole number of bytes, got ${maxBytes}`);
  return { name, format, maxBytes };
}

/** Bytes as a Uint8Array view (no copy): a Uint8Array, any ArrayBuffer view, an ArrayBuffer or a Blob. */
async function toBytes(input, problem, maxBytes) {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)) return new Uint8Array(input);
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    // A file larger than the limit is refused before it is read into memory.
    if (input.size > maxBytes) {
      throw problem.range(`has ${input.size} bytes, over the limit of ${maxBytes} bytes (options.maxBytes)`, 'file-too-big', {
        size: input.size,
        limit: maxBytes,
      });
    }
    return new Uint8Array(await input.arrayBuffer());
  }
  const kind = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
  throw new TypeError(`${FN}: bytes must be a Uint8Array, an ArrayBuffer or a Blob (a File), got ${kind}`);
}

function baseName(name) {
  const file = name.split(/[\\/]/).pop();
  const dot = file.lastIndexOf('.');
  return { stem: dot > 0 ? file.slice(0, dot) : file, ext: dot > 0 ? file.slice(dot + 1).toLowerCase() : '' };
}

function sniff(bytes) {
  if (NPY_MAGIC.every((b, i) => bytes[i] === b)) return 'npy';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return 'npz';
  const n = safetensorsHeaderLength(bytes);
  if (n > 1 && n <= bytes.length - 8 && bytes[8] === 0x7b) return 'safetensors';
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3; // UTF-8 byte order mark
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (bytes[i] === 0x7b || bytes[i] === 0x5b) return 'json';
  if (bytes[0] === 0x80 && bytes[1] >= 2 && bytes[1] <= 5) return 'pickle';
  return null;
}

export async function readTensors(input, options) {
  const { name, format: given, maxBytes } = readOptions(options);
  const problem = new FileProblem(FN, name || 'bytes');
  const bytes = await toBytes(input, problem, maxBytes);
  const { stem, ext } = name ? baseName(name) : { stem: '', ext: '' };
  if (!given && PICKLES.test(name || ''))
    throw problem.type('is a pickle (torch.save / pickle.dump): refused, never unpickled; save with safetensors.torch.save_file or numpy.save', 'file-pickle');
  const format = given || (FORMATS.includes(ext) ? ext : sniff(bytes));
  if (format === 'pickle') throw problem.type('is a pickle: refused, never unpickled; save with safetensors.torch.save_file or numpy.save', 'file-pickle');
  if (!format) throw problem.type('is not a .npy, .npz, .safetensors or JSON file (unknown name and magic bytes)', 'file-format');
  const result = await readFormat(format, bytes, problem, new OutputBudget(maxBytes, problem), stem || 'array');
  const out = { tensors: result.tensors };
  if (result.tokens !== undefined) out.tokens = result.tokens;
  if (result.metadata !== undefined) out.metadata = result.metadata;
  return out;
}

async function readFormat(format, bytes, problem, budget, stem) {
  try {
    if (format === 'npy') {
      const array = parseNpy(bytes, problem, budget);
      if (array.strings) throw problem.type(`holds strings (shape [${array.shape}]), not numbers`, 'file-strings');
      return { tensors: { [stem]: array } };
    }
    if (format === 'npz') return await readNpz(bytes, problem, budget);
    if (format === 'safetensors') return readSafetensors(bytes, problem, budget);
    return readJson(bytes, problem, stem);
  } catch (error) {
    if (error.message.startsWith(problem.prefix)) throw error;
    // An engine limit (an allocation too large for this page, a JSON nested past the stack):
    // still an error about this file, never a crash of the caller.
    throw problem.range(`cannot be read here (${error.message})`);
  }
}
