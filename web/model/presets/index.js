// The preset registry: id -> { id, make(options) -> raw state, printed?, opens? }; its words are
// web/i18n's 'preset.<id>.title' (what it shows), '.summary' and '.origin' (where it comes from)
// (opens: the id of the explorer panel the preset scrolls into view, e.g. 'generate').
// Importing this file loads every preset (catalog.js loads one at a time, for <attn-figure>).
// A new preset is one file here, one line below and one in catalog.js's IMPORTS.
import alibi from './alibi.js';
import { addPresets } from './catalog.js';
import d2l from './d2l.js';
import decode from './decode.js';
import random from './random.js';
import seed002 from './seed-002.js';
import seed004 from './seed-004.js';
import rotary from './rotary.js';
import sentence from './sentence.js';
import slidingWindow from './sliding-window.js';

export const PRESETS = [seed004, seed002, d2l, sentence, slidingWindow, alibi, rotary, decode, random];
addPresets(PRESETS);

export { DEFAULT_PRESET, presetById, presetRaw, presetState } from './catalog.js';
