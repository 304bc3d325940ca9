// Tensors from a file for the elements' src, tensor and index attributes:
//   src="attn.safetensors"  fetched relative to the page, read by attention-lab/io (loaded on first
//                           use, so a page of inline figures never downloads it);
//   tensor="attention"      which tensor (optional when the file holds one);
//   index="0 3"             leading indices (layer 0, head 3) down to the rank the figure draws.
// Every failure names the attribute and the file: "src: attn.npy could not be loaded (HTTP 404)".
import { text } from './attributes.js';

const files = new Map(); // absolute URL -> Promise<{ tensors, tokens?, metadata? }>, once per page

function fileName(src) {
  return decodeURIComponent(src.split(/[?#]/)[0].split('/').pop() || src);
}

async function fetchTensors(src) {
  const url = new URL(src, document.baseURI).href;
  if (!files.has(url)) {
    const loading = (async () => {
      let response;
      try {
        response = await fetch(url);
      } catch (error) {
        throw new TypeError(`src: ${src} could not be loaded (${error.message})`);
      }
      if (!response.ok) throw new TypeError(`src: ${src} could not be loaded (HTTP ${response.status})`);
      const { readTensors } = await import('../io/index.js');
      try {
        return await readTensors(new Uint8Array(await response.arrayBuffer()), { name: fileName(src) });
      } catch (error) {
        const Kind = error instanceof RangeError ? RangeError : TypeError;
        throw new Kind(`src: ${error.message}`);
      }
    })();
    loading.catch(() => files.delete(url)); // a failed load may be retried
    files.set(url, loading);
  }
  return files.get(url);
}

/**
 * <attn-figure src>: the file's X, Wq, Wk, Wv (or Q, K, V) as a partial explorer state, checked by
 * the explorer's import roles; `transpose` lists the weights stored as nn.Linear's (out, in)
 * (default: those that only fit X transposed).
 */
export async function fileState(element) {
  const src = text(element, 'src');
  const file = await fetchTensors(src);
  const { fileStatePatch } = await import('../model/roles.js');
  const listed = element.getAttribute('transpose');
  const flipped = listed === null ? null : Object.fromEntries((listed.trim().split(/[\s,]+/).filter(Boolean)).map((k) => [k.toLowerCase(), true]));
  let patch;
  try {
    patch = fileStatePatch(file, flipped);
  } catch (error) {
    throw new RangeError(`src: ${src}: ${error.message}`);
  }
  if (patch === null) {
    throw new TypeError(`src: ${src} holds no x, wq, wk, wv or q, k, v tensors (it holds ${Object.keys(file.tensors).join(', ')}); attention weights alone go to <attn-heatmap src> or <attn-heads src>`);
  }
  return patch;
}

/**
 * The element's file tensor, narrowed by `index` to `rank` axes at most:
 * -> { tensor: { data, shape }, tokens, src }.
 */
export async function fileTensor(element, rank) {
  const src = text(element, 'src');
  const file = await fetchTensors(src);
  const names = Object.keys(file.tensors);
  let name = text(element, 'tensor');
  if (name === undefined) {
    if (names.length !== 1) throw new TypeError(`tensor: ${src} holds ${names.length} tensors (${names.join(', ')}): name one with tensor="..."`);
    name = names[0];
  } else if (!Object.hasOwn(file.tensors, name)) {
    throw new TypeError(`tensor: ${src} has no tensor "${name}" (it holds ${names.join(', ')})`);
  }
  let { data, shape } = file.tensors[name];
  const raw = element.getAttribute('index');
  const index = raw === null || raw.trim() === '' ? [] : raw.trim().split(/[\s,]+/).map(Number);
  if (index.length > Math.max(0, shape.length - 2)) {
    throw new RangeError(`index: ${src}'s ${name} has shape [${shape.join(', ')}]; "${raw}" picks more leading axes than it has before its last two`);
  }
  const full = shape;
  index.forEach((i, axis) => {
    if (!Number.isInteger(i) || i < 0 || i >= full[axis]) throw new RangeError(`index: "${raw}": axis ${axis} of ${src}'s ${name} [${full.join(', ')}] takes 0..${full[axis] - 1}, got ${index[axis]}`);
  });
  // Row-major: leading indices pick one contiguous block of the remaining axes.
  const rest = full.slice(index.length);
  const block = rest.reduce((a, b) => a * b, 1);
  const start = index.reduce((offset, i, axis) => offset * full[axis] + i, 0) * block;
  data = data.subarray(start, start + block);
  shape = rest;
  if (shape.length > rank) {
    throw new RangeError(`index: ${src}'s ${name} still has shape [${shape.join(', ')}] after index "${raw ?? ''}"; give ${shape.length - rank} more leading ${shape.length - rank === 1 ? 'index' : 'indices'} (e.g. index="${[...index, ...Array(shape.length - rank).fill(0)].join(' ')}")`);
  }
  return { tensor: { data, shape }, tokens: file.tokens, src };
}
