// splitTokens (web/model/state/tokens.js): a sentence typed with spaces keeps its words as typed;
// one typed without spaces (Chinese) is split into words by Intl.Segmenter. tokensText and
// readTokensText: a list of tokens through a text field and back, unchanged; setTokens: a state
// resized to its typed tokens.
import { describe, expect, it } from 'vitest';
import { readTokensText, splitTokens, tokensText } from '../../../web/model/state/tokens.js';
import { setTokens, sizeChanges } from '../../../web/model/state/sizes.js';
import { presetState } from '../../../web/model/presets/index.js';

describe('splitTokens(text)', () => {
  it('keeps words typed with spaces as typed: "the cat sat" is 3 tokens', () => {
    expect(splitTokens('the cat sat')).toEqual(['the', 'cat', 'sat']);
    expect(splitTokens('  the\tcat\n sat  ')).toEqual(['the', 'cat', 'sat']);
    expect(splitTokens("don't stop.")).toEqual(["don't", 'stop.']);
  });

  it('splits a Chinese sentence typed without spaces into its words', () => {
    const tokens = splitTokens('我爱自然语言处理');
    // ICU's dictionary gives 我 / 爱 / 自然 / 语言 / 处理; any split into words (not one token, not
    // one per character) that joins back to the sentence is right.
    expect(tokens.length, tokens.join(' / ')).toBeGreaterThan(2);
    expect(tokens.length, tokens.join(' / ')).toBeLessThan(8);
    expect(tokens.join('')).toBe('我爱自然语言处理');
    expect(tokens).toContain('我');
  });

  it('splits each unspaced run of a mixed sentence and keeps its punctuation as tokens', () => {
    const tokens = splitTokens('Transformer 使用自注意力。');
    expect(tokens[0]).toBe('Transformer');
    expect(tokens.join('')).toBe('Transformer使用自注意力。');
    expect(tokens.at(-1)).toBe('。');
    expect(tokens.length).toBeGreaterThan(3);
  });

  it('gives no token for empty or blank text, and names a text that is not a string', () => {
    expect(splitTokens('')).toEqual([]);
    expect(splitTokens('   ')).toEqual([]);
    expect(() => splitTokens(42)).toThrow(/splitTokens: text must be a string, got number/);
    expect(() => splitTokens(null)).toThrow(/got null/);
  });
});

describe('tokensText(tokens) and readTokensText(text, say)', () => {
  const say = (id, params) => `${id}${params ? ` ${JSON.stringify(params)}` : ''}`;

  it('read back every list unchanged: words joined by spaces, or a JSON list when splitting would change them', () => {
    for (const tokens of [['the', 'cat'], ['我', '爱', '自然'], ['New York', 'is'], ['我爱自然语言处理'], ['', 'a'], ['[x]', 'y']]) {
      const text = tokensText(tokens);
      expect(readTokensText(text, say), `${JSON.stringify(tokens)} as ${text}`).toEqual(tokens);
    }
    expect(tokensText(['the', 'cat'])).toBe('the cat');
    // One token the segmenter would split into words is kept whole by a JSON list.
    expect(tokensText(['我爱自然语言处理'])).toBe('["我爱自然语言处理"]');
  });

  it('split typed words, give null for an empty field, and name a broken JSON list', () => {
    expect(readTokensText('  我爱自然语言处理 ', say).join('')).toBe('我爱自然语言处理');
    expect(readTokensText('   ', say)).toBe(null);
    expect(() => readTokensText('["a", ', say)).toThrow(/^tokens-json \{"reason":/);
    expect(() => readTokensText('["a", 2]', say)).toThrow(new TypeError('tokens-strings'));
  });
});

describe('setTokens(state, field, labels) and sizeChanges(state, reference)', () => {
  it('resize X to the tokens typed, keeping the rows already there, and say which sizes changed', () => {
    const before = presetState('seed-004');
    const after = setTokens(before, 'tokens', ['我', '爱', '自然', '语言', '处理']);
    expect(after.tokens).toEqual(['我', '爱', '自然', '语言', '处理']);
    expect(after.x).toHaveLength(5);
    expect(after.x.slice(0, 3)).toEqual(before.x);
    expect(sizeChanges(after, before)).toEqual([['tokens', 3, 5]]);
    expect(sizeChanges(before, before)).toEqual([]);
  });

  it('set the queries or the keys of a Q, K, V state, and refuse a count outside 1 to 16', () => {
    const d2l = presetState('d2l');
    expect(setTokens(d2l, 'keyTokens', ['a', 'b', 'c']).k[0]).toHaveLength(3);
    expect(setTokens(d2l, 'tokens', ['a', 'b', 'c']).q[0]).toHaveLength(3);
    expect(() => setTokens(d2l, 'tokens', [])).toThrow(new RangeError('setTokens: 0 tokens, expected 1 to 16'));
    expect(() => setTokens(presetState('seed-004'), 'keyTokens', ['a'])).toThrow(/no token field 'keyTokens' for source 'self'/);
  });
});
