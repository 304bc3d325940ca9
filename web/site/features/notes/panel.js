// Above the pipeline: the page's title, the preset's summary and, for a preset whose source
// text has wrong numbers (seed 002), what the text says against what is exact, computed live.
import { h } from '../../../figures/dom.js';
import { errata, formatRow } from './errata.js';
import { presetById } from '../../../model/presets/index.js';
import { texNode } from '../../explain/typeset.js';

const STAGE_NAMES = { q: 'Q', k: 'K', v: 'V', scores: 'QKᵀ', scaled: 'QKᵀ/√3', weights: 'the weights', output: 'the output Z' };
const INPUTS = ['x', 'wq', 'wk', 'wv', 'q', 'k', 'v'];

/** True while the state's inputs are still the preset's own (the printed numbers apply). */
function unchanged(state, preset) {
  const raw = preset.make();
  return INPUTS.every((key) => raw[key] === undefined || JSON.stringify(raw[key]) === JSON.stringify(state[key]));
}

function errataNote(preset, result) {
  const list = errata(preset.printed, result);
  if (list.length === 0) return null;
  const [first] = list;
  return h('aside', { class: 'callout callout-warn', 'aria-label': 'Errors in the tutorial' },
    h('p', { class: 'callout-title' }, 'The tutorial’s numbers are wrong from Q on'),
    h('p', {}, `The text prints ${STAGE_NAMES[first.stage]} row ${first.row + 1} as `, h('code', {}, formatRow(first.printed)),
      `, but row ${first.row + 1} of X times `, texNode('W^Q'), ' is ', h('code', { class: 'good' }, formatRow(first.exact)), '.'),
    h('ul', { class: 'errata-list' }, list.map((e) => h('li', {},
      h('strong', {}, STAGE_NAMES[e.stage]), `: ${e.wrong} of ${e.total} numbers differ (row ${e.row + 1}: text `,
      h('code', {}, formatRow(e.printed)), ', exact ', h('code', { class: 'good' }, formatRow(e.exact)), ')'))),
    h('p', { class: 'hint-line' }, 'Every matrix below is exact. Hand calculations go wrong; that is what this page is for.'));
}

function mount(container) {
  return {
    update(state, result) {
      const preset = presetById(state.preset);
      const intro = h('header', { class: 'intro' },
        h('h1', { class: 'intro-title' }, 'Attention, every number'),
        h('p', { class: 'intro-lede' }, preset?.summary ?? 'Your own example.'),
        h('p', { class: 'intro-hint' }, 'Hover or focus any number to see how it was computed. Inputs are editable: type, paste a whole matrix, or drag to scrub.'));
      const note = preset?.printed && result && unchanged(state, preset) ? errataNote(preset, result) : null;
      container.replaceChildren(intro, note ?? '');
    },
  };
}

export const notesPanel = { id: 'notes', slot: 'notes', order: 10, mount };
