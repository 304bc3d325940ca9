// The README's first results, run as its reader runs them, from the repository root: the web
// developer's Node example, taken from the README's text, prints the weights and output its
// comments promise; `node examples/seed-004.mjs` prints that example as the README says; the
// researcher's two commands work. A README edit that breaks one of them fails here.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from './run.js';

let readme;
let work;
beforeAll(async () => {
  readme = await readFile(join(REPO, 'README.md'), 'utf8');
  work = await mkdtemp(join(tmpdir(), 'attnlab-readme-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** -> { code, stdout, stderr } of `node ...args` in the repository root. */
function node(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: REPO }, (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
}

/** The first fenced block of `language` after the paragraph starting `lead`. */
function blockAfter(lead, language) {
  const from = readme.indexOf(lead);
  expect(from, `the README has a paragraph starting "${lead}"`).toBeGreaterThanOrEqual(0);
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readme.slice(from));
  expect(block, `a \`\`\`${language} block after "${lead}"`).not.toBeNull();
  return block[1];
}

/** The numbers of a `// ≈ 0.0557 0.0016 | ...` comment, each with its decimals. */
const promised = (comment) => comment.match(/-?\d+\.\d+/g).map((text) => ({ text, decimals: text.split('.')[1].length }));

/** Where a printed value, rounded to the promise's decimals, is not the promised number. */
const broken = (printed, numbers) =>
  numbers.flatMap(({ text, decimals }, i) => (printed[i]?.toFixed(decimals) === text ? [] : [`#${i}: printed ${printed[i]}, README ${text}`]));

describe("the README's first results", () => {
  it("the web developer's example prints the weights and output its comments give", async () => {
    const code = blockAfter('**A web developer.**', 'js');
    const comments = [...code.matchAll(/console\.log\(([\w.]+)\.data\);\s*\/\/ ≈ (.*)/g)];
    expect(comments.map((m) => m[1])).toEqual(['trace.weights', 'output']);
    // Each logged array as JSON on its own line, so the printed digits are the float32 values.
    const run = await node([
      '--input-type=module',
      '-e',
      code.replace(/console\.log\(([\w.]+)\.data\);/g, 'console.log(JSON.stringify(Array.from($1.data)));'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const printed = run.stdout.trim().split('\n').map(JSON.parse);
    expect(printed.map((values) => values.length)).toEqual([9, 6]);
    comments.forEach((m, i) => expect(broken(printed[i], promised(m[2])), m[1]).toEqual([]));
  });

  it('node examples/seed-004.mjs prints the same weights and output, then the causal ones', async () => {
    expect(readme).toContain('`node examples/seed-004.mjs` prints that example with and without its causal mask.');
    const run = await node(['examples/seed-004.mjs']);
    expect(run.code, run.stderr).toBe(0);
    const [unmasked, causal] = run.stdout.split(/\ncausal/);
    for (const row of ['[ 0.0557,  0.0016,  0.9427]', '[ 3.939,  1.056]']) expect(unmasked).toContain(row);
    expect(causal).toContain('[ 1.0000,  0.0000,  0.0000]');
  });

  it("the researcher's two commands describe the example file and write its model view", async () => {
    const commands = blockAfter('**A researcher.**', 'sh').trim().split('\n');
    expect(commands).toEqual([
      'node bin/attention-lab.mjs info examples/induction/attention.safetensors',
      'node bin/attention-lab.mjs figure examples/induction/attention.safetensors --view heads -o heads.html',
    ]);
    const info = await runCli(['info', 'examples/induction/attention.safetensors']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain('attention  float32   [2, 4, 24, 24]');
    const out = join(work, 'heads.html');
    const figure = await runCli(['figure', 'examples/induction/attention.safetensors', '--view', 'heads', '-o', out]);
    expect(figure.code, figure.stderr).toBe(0);
    expect((await readFile(out, 'utf8')).startsWith('<!doctype html>')).toBe(true);
  });
});
