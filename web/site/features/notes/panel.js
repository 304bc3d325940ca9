// Above the pipeline: the page's title, the preset's summary and where it comes from and, for a
// preset whose source text has wrong numbers (seed-002), what the text says against what is
// exact, computed live.
import { h } from '../../../figures/dom.js';
import { errata, formatRow } from './errata.js';
import { presetById, presetState } from '../../../model/presets/index.js';
import { sizeChanges } from '../../../model/state/sizes.js';
import { sizeLabel } from '../../panels/sizes.js';
import { texNode } from '../../explain/typeset.js';

// The stages as the tutorial names them (words from the catalog: 'site.errata-<stage>').
const STAGE_NAMES = { q: 'Q', k: 'K', v: 'V', scores: 'QKᵀ', scaled: 'QKᵀ/√3' };
const stageName = (stage, t) => STAGE_NAMES[stage] ?? t(`site.errata-${stage}`);
const INPUTS = ['x', 'wq', 'wk', 'wv', 'q', 'k', 'v'];

/** True while the state's inputs are still the preset's own (the printed numbers apply). */
function unchanged(state, preset) {
  const raw = preset.make({ seed: state.seed }); // the random preset's draw is the state's seed's
  return INPUTS.every((key) => raw[key] === undefined || JSON.stringify(raw[key]) === JSON.stringify(state[key]));
}

/** A message with nodes in it: {name} in the translated text replaced by nodes[name]. */
function withNodes(text, nodes) {
  return text.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && Object.hasOwn(nodes, name) ? nodes[name] : part;
  });
}

function errataNote(preset, result, t) {
  const list = errata(preset.printed, result);
  if (list.length === 0) return null;
  const [first] = list;
  const printed = (row) => h('code', {}, formatRow(row));
  const exact = (row) => h('code', { class: 'good' }, formatRow(row));
  return h(
    'aside',
    { class: 'callout callout-warn', 'aria-label': t('site.errata-label') },
    h('p', { class: 'callout-title' }, t('site.errata-title')),
    h(
      'p',
      {},
      withNodes(t('site.errata-lead'), {
        stage: stageName(first.stage, t),
        row: String(first.row + 1),
        printed: printed(first.printed),
        wq: texNode('W^Q'),
        exact: exact(first.exact),
      }),
    ),
    h(
      'ul',
      { class: 'errata-list' },
      list.map((e) =>
        h(
          'li',
          {},
          withNodes(t('site.errata-item'), {
            stage: h('strong', {}, stageName(e.stage, t)),
            wrong: String(e.wrong),
            total: String(e.total),
            row: String(e.row + 1),
            printed: printed(e.printed),
            exact: exact(e.exact),
          }),
        ),
      ),
    ),
    h('p', { class: 'hint-line' }, t('site.errata-hint')),
  );
}

/** The headline's lede: the preset's summary, or, once resized, what changed from the preset's sizes. */
function lede(state, preset, t) {
  if (!preset) return t('site.own-example');
  const changes = sizeChanges(state, presetState(preset.id));
  if (changes.length === 0) return t(`preset.${preset.id}.summary`);
  return t('site.resized', {
    preset: t(`preset.${preset.id}.title`),
    changes: changes.map(([name, from, to]) => t('site.resized-size', { label: sizeLabel(name, t), from, to })).join(', '),
  });
}

/** Where the numbers come from: the preset's source while they are its own, else the student's. */
function origin(state, preset, t) {
  if (unchanged(state, preset)) return t(`preset.${preset.id}.origin`);
  return t('site.origin-own', { preset: t(`preset.${preset.id}.title`) });
}

function mount(container, { t }) {
  return {
    update(state, result) {
      const preset = presetById(state.preset);
      const intro = h(
        'header',
        { class: 'intro' },
        h('h1', { class: 'intro-title' }, t('site.intro-title')),
        h('p', { class: 'intro-lede' }, lede(state, preset, t)),
        preset ? h('p', { class: 'intro-origin' }, origin(state, preset, t)) : null,
        h('p', { class: 'intro-hint' }, t('site.intro-hint')),
      );
      const note = preset?.printed && result && unchanged(state, preset) ? errataNote(preset, result, t) : null;
      container.replaceChildren(intro, note ?? '');
    },
  };
}

export const notesPanel = { id: 'notes', slot: 'notes', order: 10, mount };
