// Typed text -> token labels. Words typed with spaces stay as typed ('the cat sat' -> 3 tokens);
// a run of Han, kana or Hangul, which Chinese and Japanese write without spaces, is split into
// words by Intl.Segmenter ('我爱自然语言处理' -> 我 / 爱 / 自然 / 语言 / 处理), its punctuation kept
// as tokens of their own, so a sentence works as typed in either language.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

let segmenter = null; // built on first use: the ICU data is loaded then

/** The tokens of `text` (a string): whitespace-separated words, unspaced scripts split into words. */
export function splitTokens(text, { locale = 'zh' } = {}) {
  if (typeof text !== 'string') throw new TypeError(`splitTokens: text must be a string, got ${text === null ? 'null' : typeof text}`);
  const tokens = [];
  for (const chunk of text.trim().split(/\s+/u)) {
    if (chunk === '') continue;
    if (!UNSPACED.test(chunk) || typeof Intl.Segmenter !== 'function') {
      tokens.push(chunk);
      continue;
    }
    segmenter ??= new Intl.Segmenter(locale, { granularity: 'word' });
    for (const { segment } of segmenter.segment(chunk)) if (segment.trim() !== '') tokens.push(segment);
  }
  return tokens;
}
