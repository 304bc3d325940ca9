// Which languages' words the figures and the stages have at hand. English is imported by each
// catalog part (figure-text.js, stage-text.js): the default, there at once. zh-CN's words load on
// demand, part by part, so a page in English never downloads them and a heatmap never downloads
// the stages'. The figure functions draw synchronously: a figure in zh-CN needs its words first.
//   loadLanguage(lang)              -> Promise<void>: the figures' words in lang, fetched once ('en'
//                                   at once); RangeError naming lang when it is neither
//   loadWords(lang, part)           the same for one part, 'figure' or 'stage' (pipeline() and the
//                                   explorer load the stages' too)
//   languageLoaded(lang, part)      true for 'en' and for a part loadWords() finished
//   onDemand(lang)                  true for a language whose words load on demand ('zh-CN')
//   catalogsFor(lang, part, english, caller)
//                                   message()'s catalogs for lang: { en: english } and lang's words of
//                                   `part`; RangeError naming lang and loadLanguage() when they are not
//                                   loaded yet (never English instead)
//   notLoaded(lang, caller)         that RangeError, for a figure function that checks its lang option
//   WORD_FILES[lang][text module]   the package file of that part's words: a standalone file packs
//                                   it beside the part's text module (figures/export/standalone-html.js)

// A literal import() each, so bundlers and tools/module-graph.mjs see them as on-demand files.
const LOADERS = {
  'zh-CN': {
    figure: () => import('./figures/zh-CN.js'),
    stage: () => import('./stages/zh-CN.js'),
  },
};
export const WORD_FILES = {
  'zh-CN': { 'web/i18n/figure-text.js': 'web/i18n/figures/zh-CN.js', 'web/i18n/stage-text.js': 'web/i18n/stages/zh-CN.js' },
};

const loaded = new Map(); // 'lang part' -> words
const loading = new Map(); // 'lang part' -> Promise<void>, until it settles

const shown = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

export const onDemand = (lang) => typeof lang === 'string' && Object.hasOwn(LOADERS, lang);

export const languageLoaded = (lang, part = 'figure') => lang === 'en' || loaded.has(`${lang} ${part}`);

/** Fetches the words of `part` in lang once; 'en' is always there. */
export async function loadWords(lang, part) {
  if (languageLoaded(lang, part)) return;
  if (!onDemand(lang)) throw new RangeError(`loadLanguage: lang must be 'en' or 'zh-CN', got ${shown(lang)}`);
  const id = `${lang} ${part}`;
  if (!loading.has(id)) {
    const words = LOADERS[lang][part]().then(
      (module) => {
        loaded.set(id, module.default);
      },
      (error) => {
        // A failed download (offline, a server error) may be tried again by the next call.
        loading.delete(id);
        throw new Error(`loadLanguage: the ${lang} words could not be loaded (${error?.message ?? error})`, { cause: error });
      },
    );
    loading.set(id, words);
  }
  await loading.get(id);
}

/** The figures' words in lang (their own words, the elements', the model view's), fetched once. */
export const loadLanguage = (lang) => loadWords(lang, 'figure');

/** The error of a drawing asked for in a language whose words are not loaded yet. */
export function notLoaded(lang, caller) {
  return new RangeError(`${caller}: lang '${lang}' is not loaded yet: await loadLanguage('${lang}') (attention-lab/figures) before drawing in it`);
}

/** { en: english, [lang]: lang's `part` words }; throws notLoaded() when they are not loaded yet. */
export function catalogsFor(lang, part, english, caller) {
  // A language with no words at all is message()'s to answer in English (as t() does).
  if (!onDemand(lang)) return { en: english };
  const words = loaded.get(`${lang} ${part}`);
  if (!words) throw notLoaded(lang, caller);
  return { en: english, [lang]: words };
}
