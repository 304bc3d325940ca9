// Tensors from a file for the elements' src, tensor and index attributes:
//   src="attn.safetensors"  fetched relative to the page, read by attention-lab/io (loaded on first
//                           use, so a page of inline figures never downloads it);
//   tensor="attention"      which tensor (optional when the file holds one);
//   index="0 3"             leading indices (layer 0, head 3) down to the rank the figure draws.
// Every failure names the attribute and the file: "src: attn.npy could not be loaded (HTTP 404)".
import { figureError } from '../i18n/figure-text.js';
import { text } from './attributes.js';

// The files read for src, shared by the elements that show them: absolute URL -> { loading:
// Promise<{ tensors, tokens?, metadata? }>, bytes (of its tensors, once read), users (the elements
// showing it) }, in order of last use. A file no element uses any more is dropped (releaseFile);
// past BUDGET bytes the least recently used files go too, even in use (their elements keep what
// they drew; only a redraw reads the file again). 64 MiB holds sixteen 1024 x 1024 float32 maps,
// or a (2, 12, 512, 512) model view's 25 MiB twice: a page of figures reads each file once, and
// a page of 400 files no longer holds them all (100 MB in issue 37).
export const BUDGET = 64 * 2 ** 20;
const files = new Map();

function fileName(src) {
  return decodeURIComponent(src.split(/[?#]/)[0].split('/').pop() || src);
}

/** What the cache holds: { files, bytes, budget } (for tests and curious pages). */
export function fileCache() {
  let bytes = 0;
  for (const entry of files.values()) bytes += entry.bytes;
  return { files: files.size, bytes, budget: BUDGET };
}

/** Drops the least recently used files until the cache fits its budget; the newest always stays. */
function evict() {
  let { bytes } = fileCache();
  const newest = [...files.keys()].pop();
  for (const [url, entry] of files) {
    if (bytes <= BUDGET) return;
    if (url === newest) continue;
    files.delete(url);
    bytes -= entry.bytes;
  }
}

/** `element` shows the file at `url` from now on (and no other). */
function use(element, url) {
  if (element.fileUrl && element.fileUrl !== url) forget(element);
  element.fileUrl = url;
  element.releaseFile = releaseFile;
  files.get(url)?.users.add(element);
  // Removed while its render was on the way here: disconnectedCallback found no file to let go of.
  if (!element.isConnected) queueMicrotask(() => releaseFile(element));
}

function forget(element) {
  const url = element.fileUrl;
  element.fileUrl = null;
  element.releaseFile = null;
  const entry = files.get(url);
  if (!entry) return;
  entry.users.delete(element);
  if (entry.users.size === 0) files.delete(url);
}

/**
 * Called when `element` left the page: its file goes when no other element shows it. An element
 * moved (disconnected and connected again before this runs) keeps it.
 */
export function releaseFile(element) {
  if (!element.isConnected && element.fileUrl) forget(element);
}

async function fetchTensors(src, element) {
  const url = new URL(src, document.baseURI).href;
  let entry = files.get(url);
  if (entry) {
    files.delete(url); // most recently used last
    files.set(url, entry);
  } else {
    const loading = (async () => {
      let response;
      try {
        response = await fetch(url);
      } catch (error) {
        throw Object.assign(figureError(TypeError, 'figure.error.src-load', { src, detail: error.message }), { cause: error });
      }
      if (!response.ok) throw figureError(TypeError, 'figure.error.src-load', { src, detail: `HTTP ${response.status}` });
      const { readTensors } = await import('../io/index.js');
      try {
        return await readTensors(new Uint8Array(await response.arrayBuffer()), { name: fileName(src) });
      } catch (error) {
        const Kind = error instanceof RangeError ? RangeError : TypeError;
        throw new Kind(`src: ${error.message}`);
      }
    })();
    entry = { loading, bytes: 0, users: new Set() };
    files.set(url, entry);
    loading.then(
      (file) => {
        entry.bytes = Object.values(file.tensors).reduce((sum, t) => sum + t.data.byteLength, 0);
        evict();
      },
      () => {
        if (files.get(url) === entry) files.delete(url); // a failed load may be retried
      },
    );
  }
  use(element, url);
  return entry.loading;
}

/**
 * <attn-figure src>: the file's X, Wq, Wk, Wv (or Q, K, V) as a partial explorer state, checked by
 * the explorer's import roles; `transpose` lists the weights stored as nn.Linear's (out, in)
 * (default: those that only fit X transposed).
 */
export async function fileState(element) {
  const src = text(element, 'src');
  const file = await fetchTensors(src, element);
  const { fileStatePatch } = await import('../model/roles.js');
  const listed = element.getAttribute('transpose');
  const flipped =
    listed === null
      ? null
      : Object.fromEntries(
          listed
            .trim()
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((k) => [k.toLowerCase(), true]),
        );
  let patch;
  try {
    patch = fileStatePatch(file, flipped);
  } catch (error) {
    throw new RangeError(`src: ${src}: ${error.message}`, { cause: error });
  }
  if (patch === null) {
    throw figureError(TypeError, 'figure.error.src-no-state', { src, names: Object.keys(file.tensors).join(', ') });
  }
  return patch;
}

/**
 * The element's file tensor, narrowed by `index` to `rank` axes at most:
 * -> { tensor: { data, shape }, tokens, src }.
 */
export async function fileTensor(element, rank) {
  const src = text(element, 'src');
  const file = await fetchTensors(src, element);
  const names = Object.keys(file.tensors);
  let name = text(element, 'tensor');
  if (name === undefined) {
    if (names.length !== 1) throw figureError(TypeError, 'figure.error.tensor-choose', { src, count: names.length, names: names.join(', ') });
    name = names[0];
  } else if (!Object.hasOwn(file.tensors, name)) {
    throw figureError(TypeError, 'figure.error.tensor-missing', { src, name, names: names.join(', ') });
  }
  let { data, shape } = file.tensors[name];
  const raw = element.getAttribute('index');
  const index =
    raw === null || raw.trim() === ''
      ? []
      : raw
          .trim()
          .split(/[\s,]+/)
          .map(Number);
  if (index.length > Math.max(0, shape.length - 2)) {
    throw figureError(RangeError, 'figure.error.index-too-many', { src, name, shape: shape.join(', '), raw });
  }
  const full = shape;
  index.forEach((i, axis) => {
    if (!Number.isInteger(i) || i < 0 || i >= full[axis])
      throw figureError(RangeError, 'figure.error.index-range', { raw, axis, src, name, shape: full.join(', '), last: full[axis] - 1, got: index[axis] });
  });
  // Row-major: leading indices pick one contiguous block of the remaining axes.
  const rest = full.slice(index.length);
  const block = rest.reduce((a, b) => a * b, 1);
  const start = index.reduce((offset, i, axis) => offset * full[axis] + i, 0) * block;
  data = data.subarray(start, start + block);
  shape = rest;
  if (shape.length > rank) {
    throw new RangeError(
      `index: ${src}'s ${name} still has shape [${shape.join(', ')}] after index "${raw ?? ''}"; give ${shape.length - rank} more leading ${shape.length - rank === 1 ? 'index' : 'indices'} (e.g. index="${[...index, ...Array(shape.length - rank).fill(0)].join(' ')}")`,
    );
  }
  return { tensor: { data, shape }, tokens: file.tokens, src };
}
