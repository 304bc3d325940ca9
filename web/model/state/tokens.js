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

const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The tokens as one line of text a person edits: words separated by spaces when splitTokens reads
 * them back unchanged, else a JSON list (a token holding a space, 'New York', one the segmenter
 * would split further, or a first one starting with '['), so every list of strings survives the field.
 */
export function tokensText(tokens) {
  const words = tokens.join(' ');
  return !words.startsWith('[') && sameList(splitTokens(words), tokens) ? words : JSON.stringify(tokens);
}

/**
 * A field's text -> the tokens: a JSON list of strings when it starts with '[', else splitTokens'
 * words; null when it is empty. say(id, params) words the two errors ('tokens-json' with
 * { reason }, 'tokens-strings'), thrown as TypeErrors, in the caller's language.
 */
export function readTokensText(typed, say) {
  const text = typed.trim();
  if (text === '') return null;
  if (!text.startsWith('[')) return splitTokens(text);
  let list;
  try {
    list = JSON.parse(text);
  } catch (error) {
    throw new TypeError(say('tokens-json', { reason: error.message }), { cause: error });
  }
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) throw new TypeError(say('tokens-strings'));
  return list;
}
