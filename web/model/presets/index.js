// The preset registry: id -> { id, title, summary, make(options) -> raw state, printed?, opens? }
// (opens: the id of the explorer panel the preset scrolls into view, e.g. 'generate').
// A new preset is one file here plus one line below.
import { conform } from '../state/conform.js';
import alibi from './alibi.js';
import d2l from './d2l.js';
import decode from './decode.js';
import random from './random.js';
import seed002 from './seed-002.js';
import seed004 from './seed-004.js';
import rotary from './rotary.js';
import sentence from './sentence.js';
import slidingWindow from './sliding-window.js';

export const PRESETS = [seed004, seed002, d2l, sentence, slidingWindow, alibi, rotary, decode, random];
export const DEFAULT_PRESET = 'seed-004';

export function presetById(id) {
  return PRESETS.find((p) => p.id === id) ?? null;
}

/** The raw state of preset `id` (unknown ids give the default preset), with any page-only parts it has (seed-002's checks). */
export function presetRaw(id, options) {
  const preset = presetById(id) ?? presetById(DEFAULT_PRESET);
  return { ...preset.make(options), preset: preset.id };
}

/** The conformed example state of preset `id`. */
export const presetState = (id, options) => conform(presetRaw(id, options));
