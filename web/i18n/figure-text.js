// The figures' elements' words alone (figure.*): an element page loads these, not the explorer's
// whole catalogs.
//   figureMessage(lang, key, params)   as t(lang, key, params) for a 'figure.*' key
//   figureLang(value)                  'en' | 'zh-CN' for a lang attribute; RangeError naming `lang` else
//   figureError(Type, key, params)     an Error of Type whose message is the 'figure.error.*' key in
//                                      English, carrying { key, params } so a figure shows it in its own
//   errorText(lang, error)             that message in lang; an API error's too (its apiMessage,
//                                      web/src/boundary/api-message.js); other errors as written
//   saysInWords(error)                 whether errorText says `error` in any language (else only
//                                      in its own English)
//   langOption(value, caller)          a figure function's lang option: 'en' (the default) or 'zh-CN'
//                                      exactly, its words loaded; RangeError naming `lang` else
// English is here at once; zh-CN's words load on demand (languages.js: loadLanguage), and a message
// asked for in zh-CN before they are loaded is a RangeError saying so.
import en from './figures/en.js';
import { catalogsFor, languageLoaded, notLoaded } from './languages.js';
import { message } from './message.js';

export const figureMessage = (lang, key, params) => message(catalogsFor(lang, 'figure', en, 'figureMessage'), lang, key, params, 'figureMessage');

/** An error of `Type` saying the figure message `key` in English; errorText() says it in any language. */
export function figureError(Type, key, params) {
  const error = new Type(figureMessage('en', key, params));
  // Not enumerable: the error compares and prints as the plain error it stands for.
  return Object.defineProperty(error, 'figureMessage', { value: { key, params } });
}

/** An API error's params in `lang`: a value as the catalog's error.got.*, a list of names joined. */
function apiParams(lang, params) {
  const list = new Intl.ListFormat(lang, { type: 'conjunction' });
  const said = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (Array.isArray(value)) said[name] = list.format(value);
    else if (value?.kind === 'option')
      said[name] = Object.hasOwn(en, `error.option.${value.detail}`) ? figureMessage(lang, `error.option.${value.detail}`) : value.detail;
    else if (value !== null && typeof value === 'object') {
      const key = Object.hasOwn(en, `error.got.${value.kind}`) ? `error.got.${value.kind}` : 'error.got.value';
      said[name] = figureMessage(lang, key, { detail: value.detail });
    } else said[name] = value;
  }
  return said;
}

const apiKey = (error) => (typeof error?.apiMessage?.code === 'string' ? `error.${error.apiMessage.code}` : null);

/** Whether errorText says `error` in either language: a figureError(), or an API error the catalog knows. */
export const saysInWords = (error) => Boolean(error?.figureMessage) || Object.hasOwn(en, apiKey(error) ?? '');

/** An error's message in `lang`: figureError()'s and a known API error's in that language, any other as written. */
export function errorText(lang, error) {
  if (error?.figureMessage) return figureMessage(lang, error.figureMessage.key, error.figureMessage.params);
  // In English the API's own message, word for word.
  if (lang !== 'en' && saysInWords(error)) return figureMessage(lang, apiKey(error), apiParams(lang, error.apiMessage.params));
  return error?.message ?? String(error);
}

/** A lang attribute: en or zh-CN (any case; 'zh' alone means zh-CN), nothing else. */
export function figureLang(value) {
  if (/^en(?:-[a-z]+)?$/i.test(value)) return 'en';
  if (/^zh(?:-cn|-hans)?$/i.test(value)) return 'zh-CN';
  throw figureError(RangeError, 'figure.error.lang', { got: JSON.stringify(String(value)) });
}

/** A figure function's lang option: undefined -> 'en', 'en' or 'zh-CN' as written (loaded), nothing else. */
export function langOption(value, caller) {
  if (value === undefined) return 'en';
  if (value !== 'en' && value !== 'zh-CN') {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw new RangeError(`${caller}: lang must be 'en' or 'zh-CN', got ${shown}`);
  }
  // A figure draws at once: in a language whose words are still to come it would show English.
  if (!languageLoaded(value)) throw notLoaded(value, caller);
  return value;
}
