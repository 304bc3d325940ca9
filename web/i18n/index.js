// The page's words in two languages: one catalog per language (en.js, zh-CN.js), plain objects of
// namespaced keys ('site.*', 'guide.*', 'explain.*', 'stage.*', 'preset.*'). No DOM: the model,
// the figures, the elements and the explorer all import it; the caller says which language.
//   LANGUAGES                    ['en', 'zh-CN'], the first is the fallback
//   pickLanguage(wanted)         the language of a list such as navigator.languages, or of one
//                                tag such as ?lang= gives (zh, zh-TW, zh-Hans-CN -> zh-CN; else en)
//   t(lang, key, params)         the message, with {name} replaced by params.name; a key missing
//                                from a catalog throws (tests/js/model/i18n.test.js keeps both complete)
// The stages' part of each catalog (stages/en.js, stages/zh-CN.js) also loads alone, for the
// figures: stage-text.js.
import en from './en.js';
import zhCN from './zh-CN.js';
import { message } from './message.js';

export const LANGUAGES = ['en', 'zh-CN'];
export const CATALOGS = { en, 'zh-CN': zhCN };

/** The supported language for one tag ('zh-TW' -> 'zh-CN'), or null when it is neither. */
function languageOf(tag) {
  if (typeof tag !== 'string') return null;
  const lower = tag.trim().toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}

/** The first supported language of a tag or a list of tags (navigator.languages), else 'en'. */
export function pickLanguage(wanted) {
  const tags = Array.isArray(wanted) ? wanted : [wanted];
  for (const tag of tags) {
    const lang = languageOf(tag);
    if (lang) return lang;
  }
  return LANGUAGES[0];
}

/** A supported language as given, or null (for ?lang= values, which should not be guessed at). */
export const knownLanguage = (tag) => (LANGUAGES.includes(tag) ? tag : null);

/** The message `key` in `lang` ('en' when lang is not supported), with {name} filled from params. */
export const t = (lang, key, params) => message(CATALOGS, lang, key, params, 't');
