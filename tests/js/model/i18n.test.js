// The message catalogs (web/i18n): both languages hold the same keys, every key is used by the
// code, the placeholders of a message are the same in both, and t() and pickLanguage() do what
// the explorer relies on. Node only: the catalogs are plain objects, the sources plain files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGS, LANGUAGES, pickLanguage, t } from '../../../web/i18n/index.js';
import figuresEn from '../../../web/i18n/figures/en.js';
import figuresZh from '../../../web/i18n/figures/zh-CN.js';
import { errorText, figureLang, figureMessage } from '../../../web/i18n/figure-text.js';
import { loadLanguage } from '../../../web/i18n/languages.js';
import { toTensor } from '../../../web/src/boundary/tensor.js';
import { renamedError } from '../../../web/src/boundary/renamed.js';
import { PRESET_IDS } from '../../../web/model/presets/catalog.js';
import { transformerConfig } from '../../../web/src/train/config.js';
import { readTensors } from '../../../web/io/index.js';
import { errorFromMessage, errorToMessage } from '../../../web/src/threads/messages.js';
import { resolveMask } from '../../../web/src/boundary/masks.js';

const WEB = fileURLToPath(new URL('../../../web/', import.meta.url));
const [en, zh] = [CATALOGS.en, CATALOGS['zh-CN']];

/** Every .js and .html source under web/ except the catalogs themselves (i18n's en.js, zh-CN.js), as one text. */
function webSources() {
  const texts = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'wasm') walk(path);
      } else if (/\.(?:m?js|html)$/.test(name) && !/[\\/]i18n[\\/](?:.+[\\/])?(?:en|zh-CN)\.js$/.test(path)) texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(WEB);
  return texts.join('\n');
}

// Keys the code builds from an id rather than writing out: `preset.${id}.title`, `stage.${id}.noun`,
// `site.size.${word}` and the like. A key counts as used when its literal is in the code, or when it
// belongs to one of these families and the family's template is in the code.
const FAMILIES = [
  [/^preset\.[\w-]+\.(title|summary|origin)$/, () => `preset.\${`, (k) => PRESET_IDS.includes(k.split('.')[1])],
  [/^stage\.group\.[\w-]+\.(title|lede)$/, () => 'stage.group.${'],
  [/^stage\.[\w-]+\.noun$/, () => 'stage.${'],
  [/^stage\.scoring\.[\w-]+$/, () => 'stage.scoring.${'],
  // errorText (i18n/figure-text.js): an API error's code, what a value was
  [/^error\.[\w.-]+$/, () => 'error.${'],
  [/^explain\.reason\.[\w-]+$/, () => 'explain.reason.${'],
  [/^site\.train-weights[\w-]*$/, () => 'site.train-weights${'],
  [/^lab\.field\.[\w-]+$/, () => 'lab.field.${'],
  // editMessage(lang, id) (figures/interact/messages.js): a paste error's code is its id
  [/^figure\.edit\.[\w-]+$/, () => 'figure.edit.${'],
  [/^site\.(size|view|theme|scoring|lens|fill|errata)[.-][\w-]+$/, (m) => `site.${m[1]}`],
  [/^speed\.(size|name)\.[\w-]+$/, (m) => `speed.${m[1]}.\${`],
  [/^embed\.kind\.[\w-]+$/, () => 'embed.kind.${'],
  [/^lab\.position\.[\w-]+$/, () => 'lab.position.${'],
  [/^embed\.host-[\w-]+$/, () => 'embed.host-${'],
  // Check mode and the import dialog say say('id'): their id as a literal.
  [/^(?:check|import)\.([\w-]+)$/, (m) => `'${m[1]}'`],
  [/^check\.mistake-[\w-]+$/, () => 'mistake-${'],
  [/^check\.stage\.[\w-]+$/, () => 'check.stage.${'],
  [/^import\.(role|hint)-[\w-]+$/, (m) => `${m[1]}-\${`],
  [/^guide\.(attr\.\w+|table|values)\.[\w-]+$/, (m) => `guide.${m[1]}`],
];

const placeholders = (message) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the message catalogs', () => {
  it('name the same keys in English and Chinese', () => {
    const missingInZh = Object.keys(en).filter((k) => !Object.hasOwn(zh, k));
    const missingInEn = Object.keys(zh).filter((k) => !Object.hasOwn(en, k));
    expect({ missingInZh, missingInEn }).toEqual({ missingInZh: [], missingInEn: [] });
    expect(LANGUAGES).toEqual(['en', 'zh-CN']);
  });

  it('hold a non-empty message with the same {placeholders} for every key, in both languages', () => {
    const differing = Object.keys(en).filter((k) => zh[k] !== undefined && placeholders(en[k]).join() !== placeholders(zh[k]).join());
    const empty = Object.entries({ ...en, ...zh })
      .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
      .map(([k]) => k);
    expect({ differing, empty }).toEqual({ differing: [], empty: [] });
  });

  it('hold no key the code never asks for', () => {
    const code = webSources();
    const unused = Object.keys(en).filter((key) => {
      if (code.includes(`'${key}'`) || code.includes(`\`${key}\``)) return false;
      return !FAMILIES.some(([pattern, template, belongs = () => true]) => {
        const m = pattern.exec(key);
        return m && belongs(key) && code.includes(template(m));
      });
    });
    expect(unused).toEqual([]);
  });

  it('name every preset: a title, a summary and where it comes from, with no file number or internal word', () => {
    for (const id of PRESET_IDS) {
      for (const lang of LANGUAGES) {
        for (const part of ['title', 'summary', 'origin']) {
          const text = t(lang, `preset.${id}.${part}`);
          expect(text, `${lang} preset.${id}.${part}`).not.toMatch(/\bseed[ -]?\d|walk-through/i);
        }
      }
    }
  });
});

describe('t(lang, key, params)', () => {
  it('fills {name} from params and leaves an unknown placeholder as written', () => {
    expect(t('en', 'site.head', { head: 2 })).toBe('head 2');
    expect(t('zh-CN', 'site.head', { head: 2 })).toBe('头 2');
    expect(t('en', 'site.head', {})).toBe('head {head}');
  });

  it('answers in English for a language it does not have, and names a missing key', () => {
    expect(t('fr', 'site.copy-link')).toBe('Copy link');
    expect(() => t('zh-CN', 'site.no-such-key')).toThrow(/no message 'site\.no-such-key' in the zh-CN catalog/);
  });
});

describe('pickLanguage(wanted)', () => {
  it('takes the first supported language of navigator.languages: any zh is zh-CN, anything else en', () => {
    expect(pickLanguage(['zh-CN', 'en'])).toBe('zh-CN');
    expect(pickLanguage(['zh-TW'])).toBe('zh-CN');
    expect(pickLanguage(['zh-Hans-CN'])).toBe('zh-CN');
    expect(pickLanguage(['fr-FR', 'zh'])).toBe('zh-CN');
    expect(pickLanguage(['en-GB', 'zh-CN'])).toBe('en');
    expect(pickLanguage(['fr-FR', 'de'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
    expect(pickLanguage('zh-cn')).toBe('zh-CN');
    expect(pickLanguage(undefined)).toBe('en');
  });
});

describe("the figures' own catalog (figure.*), which an element page loads alone", () => {
  it('names the same keys in both languages, all of them in the whole catalogs too', () => {
    expect(Object.keys(figuresZh).sort()).toEqual(Object.keys(figuresEn).sort());
    const absent = Object.keys(figuresEn).filter((k) => en[k] !== figuresEn[k] || zh[k] !== figuresZh[k]);
    expect(absent).toEqual([]);
  });

  it('holds no English word in its Chinese messages (format names, placeholders, code and values as written aside)', () => {
    // What a reader types or reads as written: placeholders, tags and JSON, quoted values, names.
    // The attribute, option and key names an error message names, as the reader writes them.
    const names = 'lang weights masked rowLabels src data shape tensor index wq wk wv validLens window rope base alibi heads kvHeads head float32 Tq Tk';
    // The lab's configuration (dModel, RoPE, MLP, GELU) and the file formats and calls a file reader names.
    const formats = 'dModel RoPE MLP GELU npy npz safetensors pickle options maxBytes numpy save';
    const kept = ['SVG PNG HTML CSV JSON NumPy Enter Tab Escape attention-lab d2l CHANGELOG.md none null undefined true false', names, formats]
      .join(' ')
      .split(' ');
    const asWritten = new RegExp(String.raw`\{\w+\}|<[^>]*>|\{ [^}]*\}|"[^"]*"|'[^']*'|\b(?:${kept.join('|')})\b`, 'g');
    const english = Object.entries(figuresZh).filter(([, v]) => /[A-Za-z]{2,}/.test(v.replace(asWritten, '').replace(/^[a-z-]+[:：]/, '')));
    expect(english).toEqual([]);
  });

  it('writes Chinese punctuation in Chinese text: no ASCII comma, colon, semicolon or parenthesis next to a Chinese character', () => {
    // Formulas, code and numbers keep ASCII ("(B, Tq)", "{ data, shape }", "f(x)"): they have no
    // Chinese character beside the mark. A Chinese phrase's own marks are full-width: ，：；（）,
    // also after a full-width bracket, a title's 》 or a closing ” ("（原为 2）：").
    const mixed = /[\u4e00-\u9fff][,:;()]|[,:;()][\u4e00-\u9fff]|[）》”][,:;(]/;
    const found = Object.entries(zh).filter(([, message]) => mixed.test(message));
    expect(found.map(([key, message]) => `${key}: ${message}`)).toEqual([]);
  });

  it('loads its Chinese on demand: a zh-CN message before loadLanguage("zh-CN") is a RangeError, after it Chinese', async () => {
    expect(() => figureMessage('zh-CN', 'figure.export')).toThrow(/^figureMessage: lang 'zh-CN' is not loaded yet: await loadLanguage\('zh-CN'\)/);
    await loadLanguage('zh-CN');
    expect(figureMessage('zh-CN', 'figure.export')).toBe('导出');
  });

  it("says the API's refusals in Chinese from their apiMessage, and in English word for word as the API throws them", () => {
    const thrown = (call) => {
      try {
        call();
      } catch (error) {
        return error;
      }
      throw new Error('no error thrown');
    };
    const errors = [
      renamedError('selfAttention', 'seed', 'dropoutSeed'),
      renamedError('', 'tokens', ['row-labels', 'col-labels'], 'attribute'),
      thrown(() => toTensor([[1, 2], [3]], 'weights')),
      thrown(() => toTensor([[1, 'a']], 'wq')),
      thrown(() => toTensor({ data: [1, 2, 3], shape: [2, 2] }, 'q')),
      thrown(() => toTensor({ data: 'x', shape: [1] }, 'q')),
      thrown(() => toTensor({ data: [1], shape: [-1] }, 'q')),
      thrown(() => toTensor('abc', 'k')),
      thrown(() => toTensor(null, 'v')),
    ];
    // Names, code and values as written (quoted, with a digit, a bracket or a dot): no other Latin word.
    const asWritten = /'[^']*'|"[^"]*"|\{ [^}]*\}|\[[^\]]*\]|\b\w+\.md\b|\b(?:weights|wq|q|k|v|selfAttention|data|shape|null)\b/g;
    for (const error of errors) {
      expect(error.apiMessage, error.message).toBeDefined();
      expect(Object.keys(error), 'apiMessage is not enumerable: the error prints as before').not.toContain('apiMessage');
      expect(errorText('en', error)).toBe(error.message);
      const zh = errorText('zh-CN', error);
      expect(zh.replace(asWritten, '').match(/[A-Za-z]{2,}/g), `${error.message} -> ${zh}`).toBeNull();
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(errorText('zh-CN', errors[1])).toBe("属性 'tokens' 已改名为 'row-labels'和'col-labels'（见 CHANGELOG.md）");
    // An error with no words in the catalog keeps its own message.
    expect(errorText('zh-CN', new TypeError('something else'))).toBe('something else');
  });

  it("says the lab's configuration refusals, the file readers' and the window's and ALiBi's in Chinese, and in English word for word", async () => {
    await loadLanguage('zh-CN');
    const refusal = async (call) => {
      try {
        await call();
      } catch (error) {
        return error;
      }
      throw new Error('no error thrown');
    };
    const lab = { vocab: 8, dModel: 32, layers: 2, heads: 4, maxLength: 16, positions: 'learned', mlp: 0 };
    const configured = (change) => refusal(() => transformerConfig('createTrainer', { ...lab, ...change }));
    const file = (text, name) => refusal(() => readTensors(new TextEncoder().encode(text), { name }));
    const errors = await Promise.all([
      configured({ layers: 0 }),
      configured({ heads: 'four' }),
      configured({ dModel: undefined }),
      configured({ heads: 3 }),
      configured({ heads: 4, kvHeads: 3 }),
      configured({ positions: 'sinusoidal' }),
      configured({ positions: 'rope', dModel: 12, heads: 4 }),
      refusal(() => readTensors(readFileSync(fileURLToPath(new URL('../../io/fixtures/truncated.npy', import.meta.url))), { name: 'attn.npy' })),
      file('not a tensor file', 'notes.txt'),
      file('{"w": [1, 2', 'w.json'),
      file('{}', 'empty.json'),
      file('{"w": [[1, 2], [3]]}', 'ragged.json'),
      file('', 'model.pt'),
      file('PK\u0003\u0004 broken', 'broken.npz'),
      ...[{ window: [2] }, { window: [-2, 0] }, { window: [0, 1.5] }, { alibi: 'yes' }, { alibi: [0.5] }, { alibi: [0.5, Infinity] }].map((options) =>
        refusal(() => resolveMask('multiHeadAttention', options, { B: 1, H: 2, Tq: 3, Tk: 3, axes: 4 })),
      ),
    ]);
    // Names, code and values as written (quoted, with a digit, bracket or dot, a file's name): no other Latin word.
    const asWritten =
      /'[^']*'|\[[^\]]*\]|[\w-]*\.(?:npy|npz|json|txt|pt|safetensors)\b|\b(?:createTrainer|readTensors|dModel|heads|kvHeads|layers|positions|options\.maxBytes|numpy\.save|JSON|RoPE|safetensors|pickle|w|float32|null|window|alibi|true|H|Tq|Tk|Infinity)\b/g;
    for (const error of errors) {
      expect(error.apiMessage, error.message).toBeDefined();
      expect(errorText('en', error)).toBe(error.message);
      const zh = errorText('zh-CN', error);
      expect(zh.replace(asWritten, '').match(/[A-Za-z]{2,}/g), `${error.message} -> ${zh}`).toBeNull();
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(errorText('zh-CN', errors[3])).toBe('宽度 dModel 必须是 头数 的倍数，而现在 宽度 dModel = 32，头数 = 3');
    // The lab trains in a worker: the code and params cross to the page with the message.
    expect(errorText('zh-CN', errorFromMessage(errorToMessage(errors[3])))).toBe(errorText('zh-CN', errors[3]));
    expect(errorText('zh-CN', errors[7])).toBe('attn.npy：形状 [3, 4]、类型 float32 需要 48 字节的数据，而文件只有 45 字节。');
  });

  it('takes en and zh-CN as a lang value and names lang for anything else', () => {
    expect([figureLang('en'), figureLang('zh-CN'), figureLang('zh'), figureLang('EN-us')]).toEqual(['en', 'zh-CN', 'zh-CN', 'en']);
    for (const bad of ['fr', '', 'zh-TW', 'english']) expect(() => figureLang(bad), bad).toThrow(/^lang: expected 'en' or 'zh-CN'/);
  });
});
