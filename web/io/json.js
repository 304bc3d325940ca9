// JSON tensors: a nested array (one tensor), an object of nested arrays (with optional `tokens`, a
// list of strings, and `metadata`, an object of strings), or BertViz's layout: a list of per-layer
// (1, H, T, Tk) attentions, as Hugging Face's output_attentions gives them, read as (L, H, T, Tk).
// Nesting deeper than 16, ragged arrays and non-numbers are refused by the API's tensor reader.
import { toTensor } from '../src/to-tensor.js';
import { checkTokens, defineEntry, stringMap } from './fail.js';

/** A nested array -> { data, shape, dtype }, a list of (1, H, T, Tk) layers squeezed to (L, H, T, Tk). */
function jsonTensor(value, where, problem) {
  let tensor;
  try {
    tensor = toTensor(value, where);
  } catch (error) {
    // The API's own code (tensor-ragged and the like), so a page says what is wrong in its language.
    const { code, params } = error.apiMessage ?? {};
    throw error instanceof RangeError ? problem.range(error.message, code, params) : problem.type(error.message, code, params);
  }
  const shape = tensor.shape.length === 5 && tensor.shape[1] === 1 ? [tensor.shape[0], ...tensor.shape.slice(2)] : tensor.shape;
  return { data: tensor.data, shape, dtype: 'float32' };
}

export function readJson(bytes, problem, arrayName) {
  let value;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw problem.type(`is not valid JSON (${error.message})`, 'file-json');
  }
  const tensors = {};
  if (Array.isArray(value)) {
    defineEntry(tensors, arrayName, jsonTensor(value, arrayName, problem));
    return { tensors };
  }
  if (value === null || typeof value !== 'object')
    throw problem.type(`must hold a nested array or an object of nested arrays, got ${value === null ? 'null' : typeof value}`);
  let tokens;
  let metadata;
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'tokens') tokens = checkTokens(entry, 'tokens', problem);
    else if (key === 'metadata') metadata = stringMap(entry, 'metadata', problem);
    else if (Array.isArray(entry)) defineEntry(tensors, key, jsonTensor(entry, key, problem));
    else throw problem.type(`${key} must be a nested array of numbers, got ${entry === null ? 'null' : typeof entry}`);
  }
  if (Object.keys(tensors).length === 0) throw problem.type('holds no arrays', 'file-no-arrays');
  return { tensors, tokens, metadata };
}
