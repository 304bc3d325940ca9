// Control characters in what a file names (tensors, tokens, metadata, the file's own name): every
// SVG written stays XML (U+0001 made one unparsable), every HTML page holds no control character,
// and nothing printed to a terminal carries an escape sequence (ESC [ 31 m, OSC ... BEL, CSI as
// U+009B). They are shown as their Control Pictures (U+0001 as U+2401), C1 controls as U+FFFD.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSafetensors } from '../../web/io/index.js';
import { runCli } from './run.js';
import { checkXmlChars, findAll, parseXml } from './xml.js';

// Every C0 control but newline (stdout's line breaks), DEL and the C1 controls.
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
// What an HTML page may not hold (html.spec.whatwg.org: control-character-in-input-stream) beyond \t \n \r.
const HTML_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const RED = '\u001b[31m';
const NAMES = { plain: 'a\u0001b', red: `x${RED}red`, csi: 'c\u009b2Jd' };
const TOKENS = ['t\u0001', `${RED}u`, 'v\u0085'];
let dir;
let file;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attnlab-cli-controls-'));
  // The file's own name holds an escape sequence too.
  file = join(dir, `e${RED}vil\u0007.safetensors`);
  const block = { data: Float32Array.from({ length: 9 }, (_, k) => k / 9), shape: [3, 3] };
  await writeFile(
    file,
    writeSafetensors(Object.fromEntries(Object.values(NAMES).map((n) => [n, block])), {
      tokens: TOKENS,
      note: 'set the title\u001b]0;pwned\u0007 then \u001b[2J clear',
    }),
  );
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const visible = (text) => JSON.stringify(text);

describe('attention-lab prints no control character to a terminal', () => {
  it('info shows tensor names, tokens, metadata and the file name with control pictures, no escape sequence', async () => {
    const { code, stdout, stderr } = await runCli(['info', file]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout, visible(stdout)).not.toMatch(TERMINAL_CONTROL);
    expect(stdout).toContain('  a\u2401b ');
    expect(stdout).toContain('  x\u241b[31mred ');
    expect(stdout).toContain('  c\ufffd2Jd ');
    expect(stdout).toContain('tokens (3, positions 0 to 2): t\u2401 \u241b[31mu v\ufffd');
    expect(stdout).toContain('metadata note: set the title\u241b]0;pwned\u2407 then \u241b[2J clear');
    expect(stdout).toContain('/e\u241b[31mvil\u2407.safetensors: 3 tensors');
  });

  it('an error message lists the names it holds with control pictures', async () => {
    const { code, stderr } = await runCli(['figure', file, '--tensor', `no${RED}`, '-o', join(dir, 'x.svg')]);
    expect(code).toBe(1);
    expect(stderr, visible(stderr)).not.toMatch(TERMINAL_CONTROL);
    expect(stderr).toContain("no tensor 'no\u241b[31m' (--tensor); it holds 'a\u2401b', 'c\ufffd2Jd', 'x\u241b[31mred'");
  });
});

describe('attention-lab writes SVG and HTML that parse, whatever the names hold', () => {
  for (const [key, name] of Object.entries(NAMES)) {
    it(`the SVG of tensor ${visible(name)} (${key}) is XML, its title and labels in control pictures`, async () => {
      const out = join(dir, `${key}${RED}.svg`); // the line saying what was written names it
      const { code, stderr, stdout } = await runCli(['figure', file, '--tensor', name, '-o', out]);
      expect(stdout).toBe('');
      expect(stderr, visible(stderr)).not.toMatch(TERMINAL_CONTROL);
      expect(stderr).toContain(`wrote ${dir}/${key}\u241b[31m.svg (heatmap, svg, `);
      expect(code).toBe(0);
      const root = parseXml(await readFile(out, 'utf8'));
      const texts = findAll(root, (n) => n.tag === 'text').map((n) => n.text);
      expect(texts).toEqual(expect.arrayContaining(['t\u2401', '\u241b[31mu', 'v\ufffd']));
      expect(texts[0]).toBe(name.replace(/[\u0000-\u001f]/g, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0))).replace('\u009b', '\ufffd'));
      expect(findAll(root, (n) => n.tag === 'title').every((n) => !TERMINAL_CONTROL.test(n.text))).toBe(true);
    });
  }

  it('--tokens holding control characters are shown as control pictures', async () => {
    const out = join(dir, 'tokens.svg');
    const { code } = await runCli(['figure', file, '--tensor', NAMES.plain, '--tokens', 'p\u0002 q\u001b r', '-o', out]);
    expect(code).toBe(0);
    const texts = findAll(parseXml(await readFile(out, 'utf8')), (n) => n.tag === 'text').map((n) => n.text);
    expect(texts).toEqual(expect.arrayContaining(['p\u2402', 'q\u241b', 'r']));
  });

  it('the HTML page (title, caption with the file name, the SVG) holds no control character', async () => {
    const out = join(dir, 'page.html');
    const { code, stderr } = await runCli(['figure', file, '--tensor', NAMES.red, '--title', 'ti\u0001tle', '--quiet', '-o', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html, visible(html.match(HTML_CONTROL)?.[0] ?? '')).not.toMatch(HTML_CONTROL);
    checkXmlChars(html, 'the page');
    parseXml(html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6));
    expect(html).toContain('<title>ti\u2401tle</title>');
    expect(html).toContain(`from ${dir}/e\u241b[31mvil\u2407.safetensors`);
  });

  it('the pipeline page of a file whose name and tokens hold controls has none in its title or tokens', async () => {
    const qkv = join(dir, `q\u0001kv.safetensors`);
    const q = { data: Float32Array.from([1, 0, 0, 1, 1, 1]), shape: [3, 2] };
    await writeFile(qkv, writeSafetensors({ q, k: q, v: q }, { tokens: TOKENS }));
    const out = join(dir, 'pipeline.html');
    const { code, stderr } = await runCli(['figure', qkv, '--view', 'pipeline', '--quiet', '-o', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html, visible(html.match(HTML_CONTROL)?.[0] ?? '')).not.toMatch(HTML_CONTROL);
    expect(html).toContain(`<title>attention of ${dir}/q\u2401kv.safetensors</title>`);
    expect(html).not.toContain('\\u0001'); // not even as a JSON escape: the tokens are shown as pictures
  });
});
