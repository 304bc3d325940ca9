// splitTokens (web/model/state/tokens.js): a sentence typed with spaces keeps its words as typed;
// one typed without spaces (Chinese) is split into words by Intl.Segmenter.
import { describe, expect, it } from 'vitest';
import { splitTokens } from '../../web/model/state/tokens.js';

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
