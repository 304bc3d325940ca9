// The note a paste leaves: what was pasted and which sizes (and other matrices) changed with it,
// or why nothing was pasted (the parser's or the paste's named error in words, or a computed
// matrix that takes no paste). One <p
// role="status"> per figure root, kept across re-renders (the controller appends nodes()), shown
// until the next paste, for NOTE_MS, or until another example replaces the one it speaks of.
import { stageById } from '../../model/stages/registry.js';
import { h } from '../dom.js';
import { editMessage, langOf, MATRIX_NAMES, SIZE_NAMES } from './messages.js';

const NOTE_MS = 15_000; // long enough to read two sentences and look up at the matrices named

/** A refusal's reason: the error's code as a message, its fields as the parameters. */
function reasonOf(lang, error) {
  const params = { ...error };
  if (error.code === 'shape')
    Object.assign(params, { expectedRows: error.expected[0], expectedCols: error.expected[1], rows: error.got[0], cols: error.got[1] });
  if (error.code === 'too-large') Object.assign(params, { size: SIZE_NAMES[error.size] ?? error.size, lo: error.limit[0], hi: error.limit[1] });
  return editMessage(lang, error.code, params);
}

export function pasteNotice(root) {
  let node = null;
  let timer = 0;
  const show = (text, kind) => {
    clearTimeout(timer);
    node = h('p', { class: `paste-notice is-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
    node.addEventListener('click', () => {
      node?.remove();
      node = null;
    });
    root.append(node);
    timer = setTimeout(() => {
      node?.remove();
      node = null;
    }, NOTE_MS);
  };
  return {
    nodes: () => (node ? [node] : []),
    /** Takes the note away now (the example it spoke of is gone). */
    clear() {
      clearTimeout(timer);
      node?.remove();
      node = null;
    },
    /** report: pasteText()'s. */
    pasted(id, { what, notes: changes, rows, cols, value }) {
      node?.remove();
      const lang = langOf(root);
      const matrix = MATRIX_NAMES[id.stage] ?? id.stage;
      const lead =
        what === 'cell'
          ? editMessage(lang, 'pasted-cell', { value, matrix })
          : what === 'row'
            ? editMessage(lang, 'pasted-row', { row: id.row + 1, matrix })
            : editMessage(lang, 'pasted-matrix', { rows, cols, matrix });
      const notes = changes.map((note) =>
        editMessage(lang, 'resized', {
          size: SIZE_NAMES[note.size] ?? note.size,
          from: note.from,
          to: note.to,
          // A Chinese list is written with the enumeration comma: W^Q、W^K、W^V.
          others: note.others.map((o) => MATRIX_NAMES[o] ?? o).join(lang === 'zh-CN' ? '、' : ', '),
          count: note.others.length,
        }),
      );
      show([lead, ...notes].join(' '), notes.length > 0 ? 'warning' : 'info');
    },
    refused(id, error) {
      node?.remove();
      const lang = langOf(root);
      const matrix = MATRIX_NAMES[id.stage] ?? stageById(id.stage)?.title ?? id.stage;
      show(editMessage(lang, 'paste-refused', { matrix, reason: reasonOf(lang, error) }), 'error');
    },
  };
}
