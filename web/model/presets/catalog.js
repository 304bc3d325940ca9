// The presets by id, each file loaded on its own: a figure (<attn-figure>, and pipeline() and
// pipelineState() of the figures entry) loads only the one it names, while index.js loads every
// one for the explorer, which offers them all.
//   PRESET_IDS              every preset's id, in the explorer's order
//   loadPreset(id)          -> Promise: that preset loaded (default DEFAULT_PRESET; an unknown id: none)
//   presetById(id)          the loaded preset { id, make(options), ... }, else null
//   presetRaw(id, options)  its raw state, with any page-only parts (seed-002's checks); an unknown
//                           id gives the default preset; presetState: the same, conformed
import { conform } from '../state/conform.js';

// Literal imports, so a browser, a bundler and tools/module-graph.mjs all see each file.
const IMPORTS = {
  'seed-004': () => import('./seed-004.js'),
  'seed-002': () => import('./seed-002.js'),
  d2l: () => import('./d2l.js'),
  sentence: () => import('./sentence.js'),
  'sliding-window': () => import('./sliding-window.js'),
  alibi: () => import('./alibi.js'),
  rotary: () => import('./rotary.js'),
  decode: () => import('./decode.js'),
  random: () => import('./random.js'),
};

export const PRESET_IDS = Object.keys(IMPORTS);
export const DEFAULT_PRESET = 'seed-004';

const loaded = new Map(); // id -> preset

/** Adds presets already imported (index.js adds every one). */
export function addPresets(presets) {
  for (const preset of presets) loaded.set(preset.id, preset);
}

export async function loadPreset(id = DEFAULT_PRESET) {
  if (!loaded.has(id) && Object.hasOwn(IMPORTS, id)) addPresets([(await IMPORTS[id]()).default]);
}

export const presetById = (id) => loaded.get(id) ?? null;

export function presetRaw(id, options) {
  const preset = presetById(PRESET_IDS.includes(id) ? id : DEFAULT_PRESET);
  if (!preset) throw new Error(`preset ${JSON.stringify(id ?? DEFAULT_PRESET)} is not loaded: await loadPreset(id) first (presets/index.js loads every one)`);
  return { ...preset.make(options), preset: preset.id };
}

export const presetState = (id, options) => conform(presetRaw(id, options));
