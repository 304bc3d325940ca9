// The figures' elements' words alone (figure.*): an element page loads these, not the explorer's
// whole catalogs.
//   figureMessage(lang, key, params)   as t(lang, key, params) for a 'figure.*' key
//   figureLang(value)                  'en' | 'zh-CN' for a lang value; RangeError naming `lang` else
import en from './figures/en.js';
import zhCN from './figures/zh-CN.js';
import { message } from './message.js';

const FIGURE_CATALOGS = { en, 'zh-CN': zhCN };

export const figureMessage = (lang, key, params) => message(FIGURE_CATALOGS, lang, key, params, 'figureMessage');

/** A lang attribute or option: en or zh-CN (any case; 'zh' alone means zh-CN), nothing else. */
export function figureLang(value) {
  if (/^en(?:-[a-z]+)?$/i.test(value)) return 'en';
  if (/^zh(?:-cn|-hans)?$/i.test(value)) return 'zh-CN';
  throw new RangeError(`lang: expected 'en' or 'zh-CN', got ${JSON.stringify(String(value))}`);
}
