// A file's tensors, and the numbers a figure of one of them shows.
import { readTensors } from '../web/io/index.js';
import { InputError } from './errors.js';
import { readRegularFile } from './read-file.js';

const shapeText = (shape) => `[${shape.join(', ')}]`;

/**
 * -> { tensors, tokens?, metadata? } of FILE; a missing, malformed, oversized or not regular file
 * (a device, a FIFO, a directory) is an InputError naming it.
 */
export async function loadFile(file) {
  const bytes = await readRegularFile(file);
  try {
    return await readTensors(bytes, { name: file });
  } catch (error) {
    // readTensors names the file already: "readTensors(FILE): problem".
    throw new InputError(error.message);
  }
}

/** The tensor named by --tensor, or the file's only one. */
export function pickTensor(file, tensors, name) {
  const names = Object.keys(tensors);
  if (name !== undefined) {
    if (!Object.hasOwn(tensors, name)) throw new InputError(`${file}: no tensor '${name}' (--tensor); it holds ${names.map((n) => `'${n}'`).join(', ')}`);
    return { name, tensor: tensors[name] };
  }
  if (names.length !== 1)
    throw new InputError(`${file}: holds ${names.length} tensors (${names.map((n) => `'${n}'`).join(', ')}); choose one with --tensor NAME`);
  return { name: names[0], tensor: tensors[names[0]] };
}

/**
 * The block of `tensor` that a view draws: --index fixes the leading axes so that `keep` axes are
 * left (2 for a heatmap; 3 or 4 for the heads grid). Without --index the leading axes are fixed at 0.
 * -> { data: Float32Array, shape, index }.
 */
export function selectBlock(where, tensor, index, keep) {
  const { shape } = tensor;
  const free = Math.min(...keep);
  if (shape.length < free) throw new InputError(`${where} has shape ${shapeText(shape)}; this view needs at least ${free} axes`);
  const lead = index ?? Array(Math.max(0, shape.length - Math.max(...keep))).fill(0);
  if (!keep.includes(shape.length - lead.length)) {
    throw new InputError(
      `${where} has shape ${shapeText(shape)}: --index ${lead.join(',')} leaves ${shape.length - lead.length} axes, this view needs ${keep.join(' or ')} (give ${keep
        .map((k) => shape.length - k)
        .filter((n) => n >= 0)
        .join(' or ')} indices)`,
    );
  }
  let offset = 0;
  lead.forEach((i, axis) => {
    if (i >= shape[axis])
      throw new InputError(`${where} has shape ${shapeText(shape)}: --index ${lead.join(',')} is out of range on axis ${axis} (size ${shape[axis]})`);
    offset = offset * shape[axis] + i;
  });
  const rest = shape.slice(lead.length);
  const size = rest.reduce((a, b) => a * b, 1);
  if (size === 0) throw new InputError(`${where} has shape ${shapeText(shape)}: the block to draw is empty`);
  return { data: tensor.data.subarray(offset * size, (offset + 1) * size), shape: rest, index: lead };
}

/**
 * The tokens of the Tq query rows and Tk key columns, per axis: --tokens where its count fits (it
 * must fit Tq or Tk), else the file's tokens where theirs fits, else null (the figure numbers the
 * axis 0, 1, 2..., positions counted from 0 as layers and heads are).
 */
export function axisTokens(where, Tq, Tk, given, fromFile) {
  if (given && given.length !== Tq && given.length !== Tk) {
    throw new InputError(`${where}: --tokens has ${given.length} tokens, the figure has ${Tq} queries and ${Tk} keys`);
  }
  const tokens = (n) => [given, fromFile].find((list) => list?.length === n) ?? null;
  return { rows: tokens(Tq), cols: tokens(Tk) };
}
