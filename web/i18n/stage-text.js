// The stages' words alone (stage.*), for web/model/stages: a figure draws stages and loads these,
// not the page's whole catalogs (about 4 KiB gzipped against 14 for both languages).
//   stageMessage(lang, key, params)   as t(lang, key, params) for a 'stage.*' key
import en from './stages/en.js';
import zhCN from './stages/zh-CN.js';
import { message } from './message.js';

const STAGE_CATALOGS = { en, 'zh-CN': zhCN };

export const stageMessage = (lang, key, params) => message(STAGE_CATALOGS, lang, key, params, 'stageMessage');
