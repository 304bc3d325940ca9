// One message out of per-language catalogs, shared by t() (index.js, the whole catalogs) and
// stageMessage() (stage-text.js, the stages' part only).
//   message(catalogs, lang, key, params, caller)  'en' when lang is not in catalogs; throws
//                                                 RangeError naming a missing key
export function message(catalogs, lang, key, params, caller) {
  const known = Object.hasOwn(catalogs, lang) ? lang : 'en';
  const text = catalogs[known][key];
  if (typeof text !== 'string') throw new RangeError(`${caller}: no message '${key}' in the ${known} catalog`);
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
