// The stages' words alone (stage.*), for web/model/stages: a figure draws stages and loads these,
// not the page's whole catalogs (English about 2 KiB gzipped; zh-CN's on demand).
//   stageMessage(lang, key, params)   as t(lang, key, params) for a 'stage.*' key; zh-CN's words
//                                     load on demand (languages.js: loadLanguage), a RangeError before
import en from './stages/en.js';
import { catalogsFor } from './languages.js';
import { message } from './message.js';

export const stageMessage = (lang, key, params) => message(catalogsFor(lang, 'stage', en, 'stageMessage'), lang, key, params, 'stageMessage');
