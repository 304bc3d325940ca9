// The language a figure node speaks, and the words of typing and pasting numbers into a figure:
// those live in the figures' catalog (web/i18n/figures/, 'figure.edit.*'), as every figure word.
//   langOf(node)                           'zh-CN' or 'en', from the nearest lang attribute
//   editMessage(lang, id, params)          'figure.edit.<id>' (a paste error's code is its id)
//   messageText(table, lang, id, params)   the formatter of the explorer's own small tables
//                                          (check mode, import), until they move to web/i18n too
import { figureMessage } from '../../i18n/figure-text.js';

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

// Two messages have a plural form in English, a key of its own each ('-one', '-many').
const FORM = {
  resized: (p) => (p.others ? (p.count === 1 ? '-others-one' : '-others-many') : ''),
  ragged: (p) => (p.got === 1 ? '-one' : '-many'),
};

/** The message `id` of typing and pasting ('figure.edit.<id>' in the figures' catalog), in `lang`. */
export const editMessage = (lang, id, params = {}) => figureMessage(lang, `figure.edit.${id}${FORM[id]?.(params) ?? ''}`, params);
