// The command line run as a user runs it (node bin/attention-lab.mjs) on the committed fixtures:
// info lists what make_fixtures.py wrote; figure's SVG is well-formed XML with one cell per value,
// each cell's data-value the tensor's float32 value as String() prints it (decoded here without
// the package's readers); HTML and PNG are written; usage errors exit 2, bad input exits 1 naming
// the file, the tensor and the flag.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNpy } from '../../web/io/index.js';
import { INDUCTION, fixtureTensor, induction, manifest } from './expected.js';
import { BIN, REPO, runCli } from './run.js';
import { findAll, parseXml } from './xml.js';

const FIXTURES = 'tests/io/fixtures';
const KIB = 1024;
let dir;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attnlab-cli-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const reText = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs `figure` into a temp file and returns the file's text (or bytes for PNG) after checking
 * exit 0, an empty stdout and stderr saying only what was written (after Chromium's start for PNG).
 */
async function figure(args, out) {
  const path = join(dir, out);
  const result = await runCli(['figure', ...args, '-o', path]);
  const chromium = /\.png$/i.test(out) ? 'starting Chromium to draw the PNG\\.\\.\\.\\n' : '';
  expect(result.stderr).toMatch(new RegExp(`^${chromium}wrote ${reText(path)} \\(\\w+, \\w+, \\d+ bytes\\)\\n$`));
  expect(result.stdout).toBe('');
  expect(result.code).toBe(0);
  return /\.png$/i.test(out) ? readFile(path) : readFile(path, 'utf8');
}

/** The cells of an SVG text: [{ layer, head, row, col, value (the attribute text) }] in document order. */
function cellsOf(svgText) {
  const root = parseXml(svgText);
  const cells = [];
  for (const panel of findAll(root, (n) => n.tag === 'svg' || n.attrs.class === 'panel')) {
    if (panel.tag === 'svg' && findAll(root, (n) => n.attrs.class === 'panel').length) continue;
    for (const row of panel.children.filter((n) => n.attrs.class === 'row')) {
      for (const rect of row.children) {
        cells.push({
          layer: panel.attrs['data-layer'],
          head: panel.attrs['data-head'],
          row: Number(row.attrs['data-row']),
          col: Number(rect.attrs['data-col']),
          value: rect.attrs['data-value'],
          title: rect.children.find((c) => c.tag === 'title')?.text,
        });
      }
    }
  }
  expect(findAll(root, (n) => 'data-value' in n.attrs)).toHaveLength(cells.length); // no cell outside a row
  return { root, cells };
}

/**
 * Every cell k holds String(data[offset + k]) exactly, which reads back to the same float32 (NaN as
 * 'NaN'; -0 as '0', as String prints it and the figure functions write it); -> the first mismatch or null.
 */
function firstWrongCell(cells, data, offset = 0) {
  for (const [k, cell] of cells.entries()) {
    const want = data[offset + k];
    if (cell.value !== String(want) || (Number.isNaN(want) ? cell.value !== 'NaN' : Math.fround(Number(cell.value)) !== want)) return { k, cell, want };
  }
  return null;
}

describe('attention-lab info', () => {
  const files = ['float32_le.npy', 'float64_be.npy', 'stored.npz', 'every_dtype.safetensors', 'bertviz.json', 'nested.json'];
  for (const name of files) {
    it(`info ${name} lists every tensor with its dtype and shape as the fixture was written`, async () => {
      const { code, stdout, stderr } = await runCli(['info', `${FIXTURES}/${name}`]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const want = manifest.files[name];
      expect(stdout).toContain(`${FIXTURES}/${name}: ${Object.keys(want.tensors).length} tensor`);
      for (const [tensor, entry] of Object.entries(want.tensors)) {
        expect(stdout).toMatch(new RegExp(`^  ${tensor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${entry.dtype} +\\[${entry.shape.join(', ')}\\]$`, 'm'));
      }
      if (want.tokens) expect(stdout).toContain(`tokens (${want.tokens.length}, positions 0 to ${want.tokens.length - 1}): ${want.tokens.join(' ')}`);
    });
  }

  it('info on the induction example lists its (L, H, T, T) attention and its 24 tokens at positions 0 to 23', async () => {
    const { stdout, code } = await runCli(['info', INDUCTION]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}attention +float32 +\[2, 4, 24, 24\]$/m);
    expect(stdout).toContain(`tokens (24, positions 0 to 23): ${induction().tokens.join(' ')}`);
  });
});

describe('attention-lab figure --format svg', () => {
  it('a heatmap of layer 1, head 2 of the induction example has T*T cells holding the exact float32 values', async () => {
    const { data, shape, tokens } = induction();
    const [, H, T] = shape;
    const { root, cells } = cellsOf(await figure([INDUCTION, '--index', '1,2'], 'h.svg'));
    expect(root.attrs['data-stage']).toBe('weights');
    expect(cells).toHaveLength(T * T);
    expect(cells.map((c) => [c.row, c.col])).toEqual(Array.from({ length: T * T }, (_, k) => [Math.floor(k / T), k % T]));
    expect(firstWrongCell(cells, data, (1 * H + 2) * T * T)).toBeNull();
    // Tooltips name the tokens (the file's own) and their positions from 0, then the number.
    expect(cells[T + 2].title).toBe(`query ${tokens[1]} (1) → key ${tokens[2]} (2): ${cells[T + 2].title.split(': ')[1]}`);
    expect(root.children.find((n) => n.tag === 'text').text).toBe('attention[1, 2]');
    const labels = findAll(root, (n) => n.tag === 'text').map((n) => n.text);
    for (const token of new Set(tokens)) expect(labels).toContain(token);
  });

  it('tokens with markup characters are escaped and read back as written', async () => {
    const tokens = ['<b>', '&amp', '"q"'];
    const { root } = cellsOf(await figure([`${FIXTURES}/bertviz.json`, '--index', '1,0', '--row-labels', tokens.join(' ')], 'escaped.svg'));
    expect(findAll(root, (n) => n.tag === 'text').map((n) => n.text)).toEqual(expect.arrayContaining(tokens));
  });

  it('a rectangular (3, 4) .npy without tokens draws 12 cells with its values, its axes numbered from 0', async () => {
    const { data } = fixtureTensor('float32_le.npy', 'float32_le');
    const { root, cells } = cellsOf(await figure([`${FIXTURES}/float32_le.npy`], 'rect.svg'));
    expect(cells).toHaveLength(12);
    expect(firstWrongCell(cells, data)).toBeNull();
    // The title, the query rows' labels, the key columns' labels, the axis names (then the colour bar's numbers).
    expect(
      findAll(root, (n) => n.tag === 'text')
        .map((n) => n.text)
        .slice(0, 10),
    ).toEqual(['float32_le', '0', '1', '2', '0', '1', '2', '3', 'Keys', 'Queries']);
    expect(cells[6].title).toBe(`query (1) → key (2): ${cells[6].title.split(': ')[1]}`);
  });

  it('--row-labels labels the queries and --tensor picks a tensor of a file with several', async () => {
    const { data } = fixtureTensor('stored.npz', 'weights');
    const { root, cells } = cellsOf(await figure([`${FIXTURES}/stored.npz`, '--tensor', 'weights', '--row-labels', 'p q r'], 'tok.svg'));
    expect(firstWrongCell(cells, data)).toBeNull();
    expect(cells[4].title.startsWith('query q (1) → key')).toBe(true);
    // The file's own 4 tokens fit the keys.
    expect(cells[1].title.startsWith('query p (0) → key cat (1): ')).toBe(true);
    expect(findAll(root, (n) => n.tag === 'text').map((n) => n.text)).toEqual(expect.arrayContaining(['p', 'q', 'r', 'été']));
  });

  it('the heads view of the induction example has L*H*T*T cells, each map in its layer and head', async () => {
    const { data, shape } = induction();
    const [L, H, T] = shape;
    const { root, cells } = cellsOf(await figure([INDUCTION, '--view', 'heads'], 'heads.svg'));
    expect(root.attrs['data-stage']).toBe('heads');
    expect(cells).toHaveLength(L * H * T * T);
    expect(cells.map((c) => `${c.layer},${c.head}`).filter((_, k) => k % (T * T) === 0)).toEqual(
      Array.from({ length: L * H }, (_, m) => `${Math.floor(m / H)},${m % H}`),
    );
    expect(firstWrongCell(cells, data)).toBeNull();
  });

  it("the heads view is BertViz's grid: a row per layer (L0, L1), a column per head (H0..H3), each map at its row and column", async () => {
    const { shape, tokens } = induction();
    const [L, H, T] = shape;
    const { root, cells } = cellsOf(await figure([INDUCTION, '--view', 'heads'], 'grid.svg'));
    const texts = findAll(root, (n) => n.tag === 'text');
    const label = (text) => texts.find((n) => n.text === text);
    // Where each map is: its first cell's x and its first row's y.
    const panels = findAll(root, (n) => n.attrs.class === 'panel').map((p) => ({
      l: Number(p.attrs['data-layer']),
      h: Number(p.attrs['data-head']),
      x: Number(p.children[0].children[0].attrs.x),
      y: Number(p.children[0].attrs.transform.match(/translate\(0 ([\d.]+)\)/)[1]),
    }));
    const column = (h) => panels.filter((p) => p.h === h);
    const row = (l) => panels.filter((p) => p.l === l);
    for (let h = 0; h < H; h++) {
      expect(new Set(column(h).map((p) => p.x)).size, `head ${h}: one column`).toBe(1);
      if (h > 0) expect(column(h)[0].x).toBeGreaterThan(column(h - 1)[0].x);
      const x = Number(label(`H${h}`).attrs.x);
      expect(x, `H${h} over its column`).toBeGreaterThan(column(h)[0].x);
      expect(x).toBeLessThan(column(h)[0].x + T * 5);
      expect(Number(label(`H${h}`).attrs.y)).toBeLessThan(panels[0].y);
    }
    for (let l = 0; l < L; l++) {
      expect(new Set(row(l).map((p) => p.y)).size, `layer ${l}: one row`).toBe(1);
      if (l > 0) expect(row(l)[0].y).toBeGreaterThan(row(l - 1)[0].y);
      expect(Number(label(`L${l}`).attrs.y), `L${l} beside its row`).toBeGreaterThan(row(l)[0].y);
      expect(Number(label(`L${l}`).attrs.x)).toBeLessThan(panels[0].x);
    }
    expect(texts.some((n) => /^(layer|head) /.test(n.text))).toBe(false);
    // A tooltip: the map's layer and head, then the cell's tokens and positions, all from 0.
    const cell = cells[((1 * H + 3) * T + 20) * T + 17];
    expect(cell.title).toBe(`layer 1, head 3: query ${tokens[20]} (20) → key ${tokens[17]} (17): ${cell.title.split(': ')[2]}`);
  });

  it('the heads view with --index 1 draws the four heads of layer 1', async () => {
    const { data, shape } = induction();
    const [, H, T] = shape;
    const { cells } = cellsOf(await figure([INDUCTION, '--view', 'heads', '--index', '1'], 'heads1.svg'));
    expect(cells).toHaveLength(H * T * T);
    expect(firstWrongCell(cells, data, H * T * T)).toBeNull();
  });

  it('a tensor outside [0, 1] gets the diverging scale, its colour bar labelled with the largest magnitude', async () => {
    const { data } = fixtureTensor('every_dtype.safetensors', 'int16');
    const max = Math.max(...data.map(Math.abs));
    const { root, cells } = cellsOf(await figure([`${FIXTURES}/every_dtype.safetensors`, '--tensor', 'int16'], 'signed.svg'));
    expect(firstWrongCell(cells, data)).toBeNull();
    const labels = findAll(root, (n) => n.tag === 'text').map((n) => n.text.replace('\u2212', '-'));
    expect(labels).toEqual(expect.arrayContaining([String(max), `-${max}`]));
  });
});

describe('attention-lab figure --format html and png', () => {
  it('the HTML page holds the same SVG cells (without tooltips), no external reference, and is under 64 KiB for 24 x 24', async () => {
    const { data, shape } = induction();
    const [, H, T] = shape;
    const html = await figure([INDUCTION, '--index', '1,2'], 'h.html');
    const { cells } = cellsOf(html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6));
    expect(cells).toHaveLength(T * T);
    expect(firstWrongCell(cells, data, (1 * H + 2) * T * T)).toBeNull();
    expect(cells.every((c) => c.title === undefined)).toBe(true);
    expect(html).not.toMatch(/\b(src|href)="(?!#|data:)/); // nothing to fetch: file:// with no network
    const bytes = Buffer.byteLength(html);
    console.log(`standalone heatmap HTML, 24 x 24: ${(bytes / KIB).toFixed(1)} KiB raw, ${(gzipSync(html, { level: 9 }).length / KIB).toFixed(1)} KiB gzipped`);
    // 24 x 24 cells of about 100 bytes each (rounded as heatmap() draws them), the page around them.
    expect(bytes).toBeLessThan(64 * KIB);
  });

  it('the format is taken from the extension of OUT (.htm and capitals too), or from --format for an OUT with none', async () => {
    expect((await figure([`${FIXTURES}/bertviz.json`, '--index', '0,1'], 'page.html')).startsWith('<!doctype html>')).toBe(true);
    expect((await figure([`${FIXTURES}/bertviz.json`, '--index', '0,1'], 'PAGE.HTM')).startsWith('<!doctype html>')).toBe(true);
    expect((await figure([`${FIXTURES}/bertviz.json`, '--index', '0,1', '--format', 'svg'], 'plain.SVG')).startsWith('<svg')).toBe(true);
    expect((await figure([`${FIXTURES}/bertviz.json`, '--index', '0,1', '--format', 'svg'], 'no-extension')).startsWith('<svg')).toBe(true);
  });

  it('--quiet prints nothing, and -o /dev/stdout --format svg pipes the figure alone to stdout', async () => {
    const quiet = await runCli(['figure', `${FIXTURES}/bertviz.json`, '--index', '0,1', '--quiet', '-o', join(dir, 'quiet.svg')]);
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    // Through a shell's pipe, as a script runs it (Node's own child stdout is a socket, which /dev/stdout cannot open).
    const piped = await new Promise((resolve) => {
      execFile(
        'sh',
        ['-c', `"${process.execPath}" "${BIN}" figure ${FIXTURES}/bertviz.json --index 0,1 --format svg -o /dev/stdout | cat`],
        { cwd: REPO },
        (error, stdout, stderr) => resolve({ error, stdout, stderr }),
      );
    });
    expect(piped.error).toBeNull();
    expect(piped.stdout).toBe(await readFile(join(dir, 'quiet.svg'), 'utf8'));
    expect(piped.stderr).toMatch(/^wrote \/dev\/stdout \(heatmap, svg, \d+ bytes\)\n$/);
  });

  it("PNG through the system Chromium is an image twice the SVG's size", async () => {
    const svg = parseXml(await figure([`${FIXTURES}/bertviz.json`, '--view', 'heads'], 'b.svg'));
    const png = await figure([`${FIXTURES}/bertviz.json`, '--view', 'heads'], 'b.png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2 * Number(svg.attrs.width), 2 * Number(svg.attrs.height)]);
  }, 60_000);
});

describe('attention-lab errors', () => {
  const usage = [
    [[], 'a command is needed'],
    [['draw', INDUCTION], "unknown command 'draw'"],
    [['info'], 'FILE is missing'],
    [['figure', INDUCTION], '-o OUT is missing'],
    [['figure', INDUCTION, '-o', 'x.svg', '--colour', 'red'], "'--colour'"],
    [['figure', INDUCTION, '-o', 'x.svg', '--view', 'pie'], '--view must be one of heatmap, heads, pipeline, got "pie"'],
    [['figure', INDUCTION, '-o', 'x.svg', '--view', 'pipeline'], '--view pipeline is an interactive figure: --format html'],
    [['figure', INDUCTION, '-o', 'x.html', '--view', 'pipeline', '--index', '0'], '--tensor and --index do not apply'],
    [['figure', INDUCTION, '-o', 'x.gif', '--format', 'gif'], '--format must be one of svg, html, png, pdf, got "gif"'],
    [['figure', INDUCTION, '-o', 'out.pdf', '--format', 'svg'], '-o out.pdf is named .pdf, but --format is svg: name it .svg, or drop --format'],
    [
      ['figure', INDUCTION, '-o', 'out.pdf', '--view', 'pipeline'],
      '--view pipeline is an interactive figure: --format html (or -o NAME.html), got pdf from -o out.pdf',
    ],
    [['figure', INDUCTION, '-o', 'x.html', '--format', 'svg'], '-o x.html is named .html, but --format is svg: name it .svg, or drop --format'],
    [['figure', INDUCTION, '-o', 'x.PNG', '--format', 'html'], '-o x.PNG is named .PNG, but --format is html: name it .html'],
    [['figure', INDUCTION, '-o', 'x.txt'], '-o x.txt is named .txt, not a format the command writes: name it .svg, .html (or .htm), .png or .pdf'],
    [['figure', INDUCTION, '-o', 'x.txt', '--format', 'svg'], '-o x.txt is named .txt, but --format is svg'],
    [['figure', INDUCTION, '-o', 'fig'], '-o fig has no extension to tell the format: name it .svg, .html (or .htm), .png or .pdf, or give --format'],
    [
      ['figure', INDUCTION, '-o', 'x.png', '--view', 'pipeline'],
      '--view pipeline is an interactive figure: --format html (or -o NAME.html), got png from -o x.png',
    ],
    [['figure', INDUCTION, '-o', 'x.svg', '--index', '1,b'], '--index must be non-negative integers'],
    [['figure', INDUCTION, '-o', 'x.svg', '--row-labels', ' '], '--row-labels is empty'],
    [['figure', INDUCTION, '-o', 'x.svg', '--tokens', 'a b'], '--tokens was renamed --row-labels and --col-labels (see CHANGELOG.md)'],
    [['figure', INDUCTION, '-o'], "'-o, --out <value>' argument missing"],
    [['info', INDUCTION, '--view', 'heads'], 'info takes no options'],
  ];
  for (const [args, message] of usage) {
    it(`usage: attention-lab ${args.join(' ')} exits 2 saying ${JSON.stringify(message)}`, async () => {
      const { code, stderr, stdout } = await runCli(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(message);
      expect(stderr).toContain("Run 'attention-lab --help'");
    });
  }

  const bad = [
    [['info', `${FIXTURES}/missing.npy`], `${FIXTURES}/missing.npy: cannot be read (no such file)`],
    [['info', `${FIXTURES}/truncated.npy`], `readTensors(${FIXTURES}/truncated.npy)`],
    [['info', `${FIXTURES}/model.pt`], 'is a pickle'],
    [
      ['figure', `${FIXTURES}/stored.npz`, '-o', 'x.svg'],
      `${FIXTURES}/stored.npz: holds 3 tensors ('weights', 'counts', 'half'); choose one with --tensor NAME`,
    ],
    [['figure', INDUCTION, '--tensor', 'attn', '-o', 'x.svg'], `${INDUCTION}: no tensor 'attn' (--tensor); it holds 'attention'`],
    [
      ['figure', INDUCTION, '--index', '2,0', '-o', 'x.svg'],
      `${INDUCTION}: tensor 'attention' has shape [2, 4, 24, 24]: --index 2,0 is out of range on axis 0 (size 2)`,
    ],
    [
      ['figure', INDUCTION, '--index', '1', '-o', 'x.svg'],
      `${INDUCTION}: tensor 'attention' has shape [2, 4, 24, 24]: --index 1 leaves 3 axes, this view needs 2 (give 2 indices)`,
    ],
    [
      ['figure', INDUCTION, '--index', '1,2', '--row-labels', 'a b c', '-o', 'x.svg'],
      `${INDUCTION}: tensor 'attention': --row-labels has 3 labels, the figure has 24 queries`,
    ],
    [
      ['figure', INDUCTION, '--index', '1,2', '--col-labels', 'a b', '-o', 'x.svg'],
      `${INDUCTION}: tensor 'attention': --col-labels has 2 labels, the figure has 24 keys`,
    ],
    [['figure', `${FIXTURES}/vector.npy`, '-o', 'x.svg'], `${FIXTURES}/vector.npy: tensor 'vector' has shape`],
    [
      ['figure', INDUCTION, '--view', 'pipeline', '-o', 'x.html'],
      `${INDUCTION}: --view pipeline needs tensors x, wq, wk, wv (or q, k, v); it holds 'attention'`,
    ],
  ];
  for (const [args, message] of bad) {
    it(`bad input: attention-lab ${args.join(' ')} exits 1 naming the file`, async () => {
      const out = args.indexOf('-o');
      if (out > 0) args[out + 1] = join(dir, args[out + 1]);
      const { code, stderr } = await runCli(args);
      expect(code).toBe(1);
      expect(stderr).toContain(message);
    });
  }

  it('a map of more than 2^20 cells exits 1 asking for fewer with --index', async () => {
    const file = join(dir, 'big.npy');
    await writeFile(file, writeNpy({ data: new Float32Array(1025 * 1024), shape: [1, 1025, 1024] }));
    const { code, stderr } = await runCli(['figure', file, '-o', join(dir, 'big.svg')]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${file}: tensor 'big': the heatmap of shape [1025, 1024] has 1049600 cells, more than an SVG figure holds (1048576); choose fewer with --index`,
    );
  });

  it('an OUT that cannot be written exits 1 naming -o', async () => {
    const { code, stderr } = await runCli(['figure', INDUCTION, '--index', '0,0', '-o', join(dir, 'no', 'such', 'x.svg')]);
    expect(code).toBe(1);
    expect(stderr).toContain(`-o ${join(dir, 'no', 'such', 'x.svg')}: cannot be written`);
  });

  it('--help exits 0 and documents every flag and both exit codes', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--tensor NAME',
      '--index',
      '--row-labels',
      '--col-labels',
      '--view',
      '--format',
      '--title',
      '-o, --out OUT',
      '-q, --quiet',
      '-h, --help',
      'heatmap',
      'heads',
      'svg',
      'html',
      'png',
      'pdf',
    ])
      expect(stdout).toContain(flag);
    expect(stdout).toMatch(/Exit codes: 0 .*1 bad input.*2 usage/s);
    expect(stdout).toMatch(/regular file .*of at most 1 GiB/s);
    expect(stdout).toContain('-o naming FILE');
    await writeFile(join(dir, 'help.txt'), stdout);
  });
});
