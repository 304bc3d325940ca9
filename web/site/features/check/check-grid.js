// Check mode of a stage card: a grid of fields, one per number of the stage's (first) matrix,
// where a student types (or pastes, as a whole matrix) what they calculated by hand, then presses Check. Until then the exact
// matrix stays hidden (the card hides its figures; "Show the exact values" reveals them without
// marks). After Check every field is marked two ways (model/check/diagnose.js): against the exact
// value (✓, or by how much it is off) and, when the student's own earlier numbers differ from the
// exact ones, against what those give (↪✓ follows, ↪✗ does not); a summary in plain words counts
// them and names the mistake, or the slipped cells with what they should be.
import { formatNumber } from '../../../figures/index.js';
import { h } from '../../../figures/dom.js';
import { parseMatrix } from '../../../model/numbers/parse-matrix.js';
import { CATALOGS, t } from '../../../i18n/index.js';

/** say(id, params): the check-mode message 'check.<id>' in `lang` (web/i18n/panels). */
const sayIn = (lang) => (id, params) => t(lang, `check.${id}`, params);
/** What a stage is called in a sentence ('weights' -> 'attention weights'); its id when it has no name. */
const stageName = (lang, id) => (Object.hasOwn(CATALOGS.en, `check.stage.${id}`) ? t(lang, `check.stage.${id}`) : id);
/** 'Q and K', '查询 Q和键 K': a list of stage names. */
const stageList = (lang, ids) => ids.map((id) => stageName(lang, id)).join(sayIn(lang)('and'));

const signedText = (x) => (Number.isFinite(x) ? `${x > 0 ? '+' : x < 0 ? '−' : '±'}${formatNumber(Math.abs(Number(x.toPrecision(2))))}` : '∞');

/** The visible note and the spoken label of one field's marks. */
function marksOf(cell, lang, following) {
  const say = sayIn(lang);
  if (cell.status === 'right') return { text: '✓', label: say('mark-right') };
  if (cell.status === 'invalid') return { text: '?', label: say('mark-invalid') };
  if (cell.status === 'empty') return { text: '', label: say('mark-empty') };
  const off = say('mark-wrong', {
    diff: Number.isFinite(cell.typed - cell.exact) ? Number(Math.abs(cell.typed - cell.exact).toPrecision(3)) : '∞',
    tolerance: Number(cell.tolerance?.toPrecision?.(3) ?? 0),
  });
  if (!following) return { text: signedText(cell.typed - cell.exact), label: off };
  const follows = cell.follow === 'right';
  return { text: `${signedText(cell.typed - cell.exact)} ↪${follows ? '✓' : '✗'}`, label: follows ? `${off}; ${say('mark-follows')}` : off };
}

/** 'row 1 of X times column 2 of W^Q': what a slipped cell is made of, in words. */
function sourceText(source, lang) {
  const say = sayIn(lang);
  const part = ([stage, kind, a, b]) => {
    const name = stageName(lang, stage);
    if (kind === 'row' && source.length === 1) return say('source-softmax', { index: a + 1, stage: name });
    if (kind === 'cell') return say('source-cell', { stage: name, row: a + 1, col: b + 1 });
    return say(kind === 'row' ? 'source-row' : 'source-col', { index: a + 1, stage: name });
  };
  return source.length === 2 ? say('times', { a: part(source[0]), b: part(source[1]) }) : part(source[0]);
}

const MISTAKE_TEXT = {
  'column-notation': (stage) =>
    stage === 'scores'
      ? { wrong: 'Qᵀ K', right: 'Q Kᵀ' }
      : { wrong: `X (W^${stage.toUpperCase()})ᵀ`, right: `${stage.toUpperCase()} = X W^${stage.toUpperCase()}` },
};

/** The sentences of a checked stage: counts, then what explains the wrong numbers. */
export function summaryOf(report, entries, { lang, first, d, later = [] }) {
  const say = sayIn(lang);
  const { counts } = report;
  const parts = [];
  if (counts.typed === 0) {
    if (!counts.invalid) parts.push(say('none-typed'));
  } else if (counts.wrong === 0) parts.push(say(counts.typed === 1 ? 'all-right-one' : 'all-right', counts));
  else {
    parts.push(say(counts.typed === 1 ? 'some-wrong-one' : counts.wrong === 1 ? 'some-wrong-wrong-one' : 'some-wrong', counts));
    const yours = stageList(lang, report.yours);
    if (report.verdict === 'follows') {
      const starts = first && first !== report.id ? say('all-follow-first', { first: stageName(lang, first) }) : '';
      parts.push(say(counts.follows === 1 ? 'all-follow-one' : 'all-follow', { ...counts, yours, first: starts }));
    } else if (counts.follows > 0) parts.push(say(counts.follows === 1 ? 'some-follow-one' : 'some-follow', { ...counts, yours }));
    const { mistake } = report;
    if (mistake?.id === 'rounding-too-early') {
      const id = mistake.decimals === 1 ? 'mistake-rounding-too-early-one' : 'mistake-rounding-too-early';
      parts.push(say(id, { stage: stageName(lang, mistake.stage), decimals: mistake.decimals }));
    } else if (mistake)
      parts.push(
        say(`mistake-${mistake.id}`, { d, sqrtD: formatNumber(Number(Math.sqrt(d).toPrecision(4))), ...(MISTAKE_TEXT[mistake.id]?.(report.id) ?? {}) }),
      );
    else if (report.slips) {
      // A stage checked against its exact value alone has no source to name.
      const list = report.slips.map(({ row, col, should, source }) =>
        say(source.length ? 'slip' : 'slip-plain', {
          where: say('where', { row: row + 1, col: col + 1 }),
          source: source.length ? sourceText(source, lang) : '',
          should: formatNumber(Number(should.toPrecision(4))),
          typed: entries?.[row]?.[col] ?? '',
        }),
      );
      parts.push(say(report.slips.length === 1 ? 'slips-one' : 'slips', { count: report.slips.length, list: list.join(say('list-gap')) }));
    } else if (report.verdict === 'wrong') {
      const source = report.yours.length ? say('unexplained-yours', { yours }) : say('unexplained-exact');
      parts.push(say(counts.unexplained === 1 ? 'unexplained-one' : 'unexplained', { count: counts.unexplained, source }));
    }
  }
  // The first stage that differs says which later numbers follow from it.
  const following = later.filter((s) => s.counts.follows > 0);
  if (report.id === first && following.length > 0) {
    parts.push(say('later', { list: following.map((s) => say('later-item', { stage: stageName(lang, s.id), ...s.counts })).join(say('list-gap')) }));
  }
  if (counts.invalid) parts.push(say(counts.invalid === 1 ? 'invalid-one' : 'invalid', counts));
  if (counts.typed > 0 && counts.empty) parts.push(say('empty', counts));
  // Sentences follow one another as the language writes them (a space in English, none in Chinese).
  return parts.reduce((text, sentence) => say('sentences', { a: text, b: sentence }));
}

/** Adds the counts of several batches' reports (the summary speaks of the whole stage). */
function merged(reports) {
  if (reports.length === 1) return reports[0];
  const counts = {};
  for (const r of reports) for (const [k, v] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + v;
  const verdict = counts.typed === 0 ? 'empty' : counts.wrong === 0 ? 'right' : 'wrong';
  return { ...reports[0], counts, verdict, mistake: null, slips: null, yours: [] };
}

/**
 * stage: the registry entry; entries: the typed text (B, R, C); reports: a StageReport per batch;
 * how: undefined (not checked yet), 'revealed' or 'checked'; first: the diagnosis's first wrong
 * stage; later: the reports of the stages after this one (the first says which follow from it);
 * d: the queries' width; lang; rowLabels of the figure.
 * handlers: { onEntry(cell, text), onPaste(cell, texts), onCheck(), onReveal() }.
 */
export function checkGrid(
  stage,
  { entries, reports, how, first = null, later = [], d = 1, lang = 'en', rowLabels = null },
  { onEntry, onPaste, onCheck, onReveal },
) {
  const say = sayIn(lang);
  const marked = how === 'checked';
  const B = reports.length;
  const following = (report) => marked && report.yours.length > 0;
  const blocks = reports.map((report, b) => {
    const cells = [];
    report.cells.forEach((row, i) => {
      if (rowLabels) cells.push(h('span', { class: 'check-row-label', 'aria-hidden': 'true' }, rowLabels[i] ?? ''));
      row.forEach((cell, j) => {
        const note = marked ? marksOf(cell, lang, following(report)) : { text: '', label: '' };
        const where = `${B > 1 ? `${say('batch', { batch: b + 1 })}, ` : ''}${say('where', { row: i + 1, col: j + 1 })}`;
        const input = h('input', {
          type: 'text',
          inputmode: 'decimal',
          class: 'check-input',
          autocomplete: 'off',
          spellcheck: 'false',
          value: entries?.[b]?.[i]?.[j] ?? '',
          'aria-label': `${say('cell-label', { noun: stageName(lang, stage.id) === stage.id ? stage.noun : stageName(lang, stage.id), where })}${marked && cell.status !== 'empty' ? `: ${note.label}` : ''}`,
          'aria-invalid': marked && (cell.status === 'wrong' || cell.status === 'invalid') ? 'true' : 'false',
          dataset: { checkInput: stage.id, batch: b, row: i, col: j },
        });
        input.addEventListener('change', () => onEntry({ batch: b, row: i, col: j }, input.value));
        // A matrix pasted into a field fills the grid (one number pastes as text does).
        input.addEventListener('paste', (event) => {
          let pasted;
          try {
            pasted = parseMatrix(event.clipboardData?.getData('text/plain') ?? '');
          } catch {
            return;
          }
          if (pasted.rows * pasted.cols === 1) return;
          event.preventDefault();
          onPaste({ batch: b, row: i, col: j }, pasted.texts);
        });
        input.addEventListener('keydown', (event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          input.dispatchEvent(new Event('change'));
        });
        const status = marked ? cell.status : 'unmarked';
        const follows = marked && cell.status === 'wrong' && following(report) && cell.follow === 'right';
        cells.push(
          h(
            'div',
            {
              class: `check-cell is-${status}${follows ? ' is-follows' : ''}`,
              dataset: { batch: b, row: i, col: j, status, follow: marked && cell.follow ? cell.follow : '' },
            },
            input,
            h('span', { class: 'check-note', 'aria-hidden': 'true', title: note.label }, note.text),
          ),
        );
      });
    });
    return h(
      'div',
      { class: 'check-block' },
      B > 1 ? h('p', { class: 'check-batch' }, say('batch', { batch: b + 1 })) : null,
      h('div', { class: 'check-grid', style: `grid-template-columns: ${rowLabels ? 'auto ' : ''}repeat(${report.cells[0].length}, 64px)` }, cells),
    );
  });
  const whole = merged(reports);
  const summary = marked
    ? summaryOf(whole, entries?.[0], { lang, first, d, later })
    : whole.counts.typed + whole.counts.invalid === 0
      ? say('prompt')
      : say('progress', {
          ...whole.counts,
          notNumbers: whole.counts.invalid ? say(whole.counts.invalid === 1 ? 'progress-invalid-one' : 'progress-invalid', whole.counts) : '',
        });
  const tone =
    !marked || whole.counts.typed === 0
      ? ''
      : whole.verdict === 'follows' && !whole.counts.invalid
        ? ' is-follows'
        : whole.counts.wrong > 0 || whole.counts.invalid > 0
          ? ' has-wrong'
          : ' is-right';
  const yours = B === 1 && following(reports[0]) ? stageList(lang, reports[0].yours) : null;
  return h(
    'div',
    {
      class: 'check',
      dataset: {
        checkStage: stage.id,
        wrong: whole.counts.wrong,
        filled: whole.counts.typed + whole.counts.invalid,
        verdict: marked ? whole.verdict : '',
        mistake: whole.mistake?.id ?? '',
      },
    },
    h('p', { class: 'check-title' }, say('title')),
    how ? null : h('p', { class: 'check-hidden' }, say('hidden')),
    blocks,
    h(
      'div',
      { class: 'check-actions' },
      h(
        'button',
        {
          type: 'button',
          class: 'chip check-button',
          dataset: { focusKey: `check-now:${stage.id}` },
          'aria-label': say('check-button-label', { noun: stageName(lang, stage.id) }),
          onclick: onCheck,
        },
        say('check-button'),
      ),
      how
        ? null
        : h(
            'button',
            {
              type: 'button',
              class: 'chip check-reveal',
              dataset: { focusKey: `check-reveal:${stage.id}` },
              'aria-label': say('reveal-label', { noun: stageName(lang, stage.id) }),
              onclick: onReveal,
            },
            say('reveal'),
          ),
    ),
    h('p', { class: `check-summary${tone}`, role: 'status' }, summary),
    yours ? h('p', { class: 'check-rule' }, say('legend', { yours })) : null,
    h('p', { class: 'check-rule' }, say('rule')),
  );
}
