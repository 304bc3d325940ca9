// Check mode of a stage card: a grid of fields, one per number of the stage's (first) matrix,
// where a user types what they calculated by hand. Each field is marked right or wrong against
// the exact value (check/compare.js) and says by how much; a summary line counts them.
import { formatNumber } from '../../../figures/index.js';
import { checkStage, checkSummary } from './compare.js';
import { matrixSize, stackCount } from '../../../model/compute/tensors.js';
import { h } from '../../../figures/dom.js';

const signedText = (x) => (Number.isFinite(x) ? `${x > 0 ? '+' : x < 0 ? '−' : '±'}${formatNumber(Math.abs(Number(x.toPrecision(2))))}` : '∞');

function noteOf(cell) {
  if (cell.status === 'right') return { text: '✓', label: 'right' };
  if (cell.status === 'wrong') return { text: signedText(cell.signed), label: `off by ${Number.isFinite(cell.diff) ? Number(cell.diff.toPrecision(3)) : 'infinity'} (allowed ${cell.tolerance})` };
  if (cell.status === 'invalid') return { text: '?', label: 'not a number' };
  return { text: '', label: 'empty' };
}

/**
 * stage: the registry entry; tensor: the exact (B, R, C); entries: the typed text;
 * onEntry(cell, text) when a field is changed; labels: { rowLabels } of the figure.
 */
export function checkGrid(stage, tensor, entries, onEntry, { rowLabels = null } = {}) {
  const [R, C] = matrixSize(tensor);
  const B = stackCount(tensor);
  const report = checkStage(entries, tensor);
  const blocks = [];
  for (let b = 0; b < B; b++) {
    const cells = [];
    for (let i = 0; i < R; i++) {
      if (rowLabels) cells.push(h('span', { class: 'check-row-label', 'aria-hidden': 'true' }, rowLabels[i] ?? ''));
      for (let j = 0; j < C; j++) {
        const cell = report.cells[b][i][j];
        const note = noteOf(cell);
        const where = `${B > 1 ? `batch ${b + 1}, ` : ''}row ${i + 1}, column ${j + 1}`;
        const input = h('input', {
          type: 'text', inputmode: 'decimal', class: 'check-input', autocomplete: 'off', spellcheck: 'false',
          value: entries?.[b]?.[i]?.[j] ?? '',
          'aria-label': `Your ${stage.noun}, ${where}${cell.status === 'empty' ? '' : `: ${note.label}`}`,
          'aria-invalid': cell.status === 'wrong' || cell.status === 'invalid' ? 'true' : 'false',
          dataset: { checkInput: stage.id, batch: b, row: i, col: j },
        });
        input.addEventListener('change', () => onEntry({ batch: b, row: i, col: j }, input.value));
        input.addEventListener('keydown', (event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          input.dispatchEvent(new Event('change'));
        });
        cells.push(h('div', { class: `check-cell is-${cell.status}`, dataset: { batch: b, row: i, col: j, status: cell.status, diff: cell.diff ?? '' } },
          input, h('span', { class: 'check-note', 'aria-hidden': 'true', title: note.label }, note.text)));
      }
    }
    blocks.push(h('div', { class: 'check-block' },
      B > 1 ? h('p', { class: 'check-batch' }, `batch ${b + 1}`) : null,
      h('div', { class: 'check-grid', style: `grid-template-columns: ${rowLabels ? 'auto ' : ''}repeat(${C}, 64px)` }, cells)));
  }
  return h('div', { class: 'check', dataset: { checkStage: stage.id, wrong: report.wrong, filled: report.filled } },
    h('p', { class: 'check-title' }, 'Your numbers'),
    blocks,
    h('p', { class: `check-summary${report.wrong ? ' has-wrong' : ''}`, role: 'status' }, checkSummary(report, { batches: B > 1 })),
    h('p', { class: 'check-rule' }, 'Right means the exact value rounds to your number: within half a unit of its last decimal (0.46 ± 0.005, 3 ± 0.5).'));
}
