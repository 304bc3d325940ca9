// The palette is written once, in web/figures/palette.js; CSS cannot import it, so this test holds
// figures.css's fallbacks and the explorer's tokens.css to it (a colour changed in one place only
// fails here, naming the property and both values). Node only (it reads files): hence tests/cli.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PALETTE } from '../../web/figures/palette.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const long = (hex) => (hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex).toLowerCase();

/** tokens.css's :root custom properties, var(--x) resolved within the file. */
function tokens() {
  const root = read('web/site/styles/tokens.css').match(/:root\s*\{([\s\S]*?)\n\}/)[1];
  const values = Object.fromEntries([...root.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
  const resolve = (value) => value.replace(/var\((--[\w-]+)\)/g, (_, name) => resolve(values[name]));
  return Object.fromEntries(Object.keys(values).map((name) => [name, resolve(values[name])]));
}

describe('the palette', () => {
  it("figures.css's fallbacks are palette.js's light colours", () => {
    const uses = [...read('web/figures/figures.css').matchAll(/var\(--attn-([\w-]+),\s*(#[0-9a-fA-F]{3,6})\)/g)];
    expect(uses.length).toBeGreaterThan(20);
    for (const [, name, hex] of uses) {
      expect(PALETTE[name], `--attn-${name} is not in palette.js`).toBeDefined();
      expect(long(hex), `figures.css --attn-${name}`).toBe(PALETTE[name][0]);
    }
    // Every colour of the palette has a fallback in figures.css.
    expect(new Set(uses.map((m) => m[1]))).toEqual(new Set(Object.keys(PALETTE)));
  });

  it("tokens.css sets every --attn-* colour to palette.js's light-dark() pair, and no other", () => {
    const values = tokens();
    const set = Object.keys(values).filter((name) => name.startsWith('--attn-') && name !== '--attn-font');
    expect(new Set(set)).toEqual(new Set(Object.keys(PALETTE).map((name) => `--attn-${name}`)));
    for (const [name, [light, dark]] of Object.entries(PALETTE)) {
      const pair = values[`--attn-${name}`].match(/^light-dark\((#[0-9a-f]{3,6}),\s*(#[0-9a-f]{3,6})\)$/i);
      expect(pair, `tokens.css --attn-${name}: ${values[`--attn-${name}`]}`).not.toBeNull();
      expect([long(pair[1]), long(pair[2])], `tokens.css --attn-${name}`).toEqual([light, dark]);
    }
  });
});
