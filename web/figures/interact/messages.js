// The words of typing and pasting numbers into a figure, in English and Chinese (zh-CN), keyed by
// message id with {parameters}: a small table of its own until a site-wide catalog absorbs it.
// The Chinese uses the terms of the tutorials the explorer grew from (查询/键/值).
//   messageText(table, lang, id, params)   the one formatter (check mode's table uses it too)
//   langOf(node)                           'zh-CN' or 'en', from the nearest lang attribute
//   editMessage(lang, id, params)          a message of this table

/** 'zh-CN' when the nearest lang attribute (across a shadow root) starts with zh, else 'en'. */
export function langOf(node) {
  let at = node;
  while (at) {
    const lang = at.closest?.('[lang]')?.getAttribute('lang');
    if (lang) return /^zh/i.test(lang) ? 'zh-CN' : 'en';
    at = at.getRootNode?.().host ?? null;
  }
  const page = globalThis.document?.documentElement?.lang ?? '';
  return /^zh/i.test(page) ? 'zh-CN' : 'en';
}

/** table[lang][id] with {name} replaced by params.name (a function entry gets params); English when missing. */
export function messageText(table, lang, id, params = {}) {
  const entry = table[lang]?.[id] ?? table.en[id];
  if (entry === undefined) throw new RangeError(`messageText: no message '${id}'`);
  const text = typeof entry === 'function' ? entry(params) : entry;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? `{${name}}`));
}

// The sizes and matrices as the page names them (the same in both languages).
export const SIZE_NAMES = { tokens: 'T', dIn: 'd_in', dQ: 'd_q', dV: 'd_v', queries: 'T_q', keys: 'T_k', d: 'd', dv: 'd_v' };
export const MATRIX_NAMES = { x: 'X', wq: 'W^Q', wk: 'W^K', wv: 'W^V', wo: 'W^O', q: 'Q', k: 'K', v: 'V', target: 'Y', params: 'θ' };

const plural = (n, one, many) => (n === 1 ? one : many);

const TABLE = {
  en: {
    'editor-label': '{cell}. Type a number (1/2 and full-width digits too), Enter to set and move down, Tab to move right, Escape to cancel',
    'pasted-matrix': 'Pasted a {rows} × {cols} matrix into {matrix}.',
    'pasted-row': 'Pasted row {row} of {matrix}.',
    'pasted-cell': 'Pasted {value} into {matrix}.',
    resized: (p) =>
      `${p.size} is now ${p.to} (was ${p.from})${p.others ? `: ${p.others} ${p.count === 1 ? 'was' : 'were'} resized to match, new numbers seeded; paste ${plural(p.count, 'it', 'them')} next` : ''}.`,
    'paste-refused': 'Nothing pasted into {matrix}: {reason}',
    empty: 'the clipboard holds no numbers.',
    'several-matrices': 'the text holds {count} matrices; copy one at a time.',
    'not-two-dimensional': 'the brackets hold several matrices; copy one.',
    summarized: "NumPy left numbers out ('...'); print the array whole first.",
    ragged: (p) => `row {row} has {got} ${plural(p.got, 'number', 'numbers')} but row 1 has {expected}.`,
    'not-a-number': 'row {row}, column {col} is “{text}”, not a number.',
    shape: 'it must stay {expectedRows} × {expectedCols}, the text is {rows} × {cols}.',
    'too-large': '{size} would be {got}; the explorer takes {lo} to {hi}.',
    'not-editable':
      'it is computed from the matrices before it. Paste into an editable matrix (X, the weights), or into the fields of Check to check your own numbers.',
  },
  'zh-CN': {
    'editor-label': '{cell}。输入数字(也可输入 1/2 或全角数字),Enter 确认并下移,Tab 右移,Escape 取消',
    'pasted-matrix': '已将 {rows} × {cols} 矩阵粘贴到 {matrix}。',
    'pasted-row': '已粘贴 {matrix} 的第 {row} 行。',
    'pasted-cell': '已将 {value} 粘贴到 {matrix}。',
    resized: (p) => `${p.size} 现为 ${p.to}(原为 ${p.from})${p.others ? `:${p.others} 已随之调整大小,新增的数为随机种子生成,请接着粘贴` : ''}。`,
    'paste-refused': '未粘贴到 {matrix}:{reason}',
    empty: '剪贴板中没有数字。',
    'several-matrices': '文本中有 {count} 个矩阵,请一次复制一个。',
    'not-two-dimensional': '方括号中有多个矩阵,请只复制一个。',
    summarized: 'NumPy 省略了部分数字(“...”),请先完整打印数组。',
    ragged: '第 {row} 行有 {got} 个数,而第 1 行有 {expected} 个。',
    'not-a-number': '第 {row} 行第 {col} 列是“{text}”,不是数字。',
    shape: '它必须保持 {expectedRows} × {expectedCols},而文本是 {rows} × {cols}。',
    'too-large': '{size} 将为 {got};本页面支持 {lo} 到 {hi}。',
    'not-editable': '它由前面的矩阵计算得出。请粘贴到可编辑的矩阵(X、权重矩阵),或粘贴到“检查”的输入框中核对你自己的计算。',
  },
};

export const editMessage = (lang, id, params) => messageText(TABLE, lang, id, params);
export const EDIT_MESSAGES = TABLE;
