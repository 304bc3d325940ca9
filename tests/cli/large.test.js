// Tensors the readers accept and the 2^20-cell limit lets through are drawn, however thin: a
// (130000, 1) map once crashed figure-svg.js with "Maximum call stack size exceeded" (the longest
// label found by Math.max(...labels), one argument per label).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNpy, writeSafetensors } from '../../web/io/index.js';
import { runCli } from './run.js';
import { findAll, parseXml } from './xml.js';

let dir;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attnlab-cli-large-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A .npy of `shape` holding 0, 1/n, 2/n...; -> { file, data }. */
async function ramp(name, shape) {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Float32Array.from({ length: n }, (_, k) => k / n);
  const file = join(dir, `${name}.npy`);
  await writeFile(file, writeNpy({ data, shape }));
  return { file, data };
}

describe('attention-lab draws thin tensors of many rows', () => {
  it('a (130000, 1) tensor is a heatmap of 130000 cells holding its values, with no stack overflow', async () => {
    const { file, data } = await ramp('tall', [130000, 1]);
    const out = join(dir, 'tall.svg');
    const { code, stderr, ms } = await runCli(['figure', file, '--quiet', '-o', out], { timeout: 120_000 });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    console.log(`(130000, 1) heatmap SVG written in ${(ms / 1000).toFixed(1)} s`);
    const root = parseXml(await readFile(out, 'utf8'));
    const cells = findAll(root, (n) => 'data-value' in n.attrs);
    expect(cells).toHaveLength(data.length);
    const wrong = cells.findIndex((c, k) => c.attrs['data-value'] !== String(data[k]));
    expect(wrong, `cell ${wrong}`).toBe(-1);
  }, 180_000);
});

describe('attention-lab info lists files of many tensors', () => {
  it('a JSON file of 200000 tensors is listed, one line each, with no stack overflow', async () => {
    const file = join(dir, 'many.json');
    await writeFile(file, JSON.stringify(Object.fromEntries(Array.from({ length: 200_000 }, (_, k) => [`t${k}`, [[k]]]))));
    const { code, stdout, stderr } = await runCli(['info', file], { timeout: 60_000 });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${file}: 200000 tensors`);
    expect(lines).toHaveLength(200_001);
    expect(lines[200_000]).toMatch(/^ {2}t199999 +float32 +\[1, 1\]$/);
  }, 90_000);
});

describe('attention-lab draws files whose tokens are long', () => {
  it('a (512, 512) map with 1100-character tokens is written, its labels cut to 40 characters', async () => {
    // Each tooltip named two whole tokens: 2^18 cells of 2200 characters passed V8's longest
    // string (2^29 - 24) and the join crashed with "Invalid string length".
    const T = 512;
    const tokens = Array.from({ length: T }, (_, i) => `${i}:${'w'.repeat(1100)}`);
    const data = Float32Array.from({ length: T * T }, (_, k) => (k % 97) / 97);
    const file = join(dir, 'long-tokens.safetensors');
    await writeFile(file, writeSafetensors({ attention: { data, shape: [T, T] } }, { tokens }));
    const out = join(dir, 'long-tokens.svg');
    const { code, stderr, ms } = await runCli(['figure', file, '--quiet', '-o', out], { timeout: 120_000 });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    console.log(`(512, 512) heatmap with 1100-character tokens written in ${(ms / 1000).toFixed(1)} s`);
    const text = await readFile(out, 'utf8');
    const shown = `7:${'w'.repeat(37)}\u2026`;
    expect(text).toContain(`>${shown}</text>`);
    expect(text).toContain(`<title>query ${shown} (7) → key ${shown} (7): `);
    expect(text).not.toContain('w'.repeat(40));
    expect(text.match(/data-value="/g)).toHaveLength(T * T);
  }, 180_000);
});

describe('attention-lab refuses a PNG taller than Chromium draws', () => {
  it('the PNG of a (130000, 1) tensor exits 1 at once saying to write SVG (it waited 30 s for Chromium, then threw)', async () => {
    const { file } = await ramp('tall-png', [130000, 1]);
    const { code, stderr, signal } = await runCli(['figure', file, '-o', join(dir, 'tall.png')], { timeout: 15_000 });
    expect(signal).toBeNull();
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).toContain(
      "attention-lab: the figure is 134 x 1820062 px; a PNG at 2x holds at most 8192 px a side (Chromium's limit): write SVG (--format svg)",
    );
    expect(code).toBe(1);
  }, 30_000);
});
