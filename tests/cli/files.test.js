// What the command reads and what it writes over: only regular files, their size checked before a
// byte is read (a device never ends, a FIFO blocks its reader, a sparse file claims gigabytes it
// does not hold), and never an OUT that is one of its inputs. The odd files are made here, in a
// temp dir: a FIFO by mkfifo, a sparse file by truncate, /dev/zero and /dev/urandom as they are.
import { execFileSync } from 'node:child_process';
import { copyFile, link, mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDUCTION } from './expected.js';
import { REPO, runCli } from './run.js';

const GIB = 2 ** 30;
// A refusal is immediate: node's start and the module graph take about 0.3 s on this machine; the
// old reads ran 10 s (a 1.5 GiB file) or forever (a device, a FIFO). Killed at 10 s either way.
const QUICK_MS = 5000;
const KILL_MS = 10_000;
let dir;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attnlab-cli-files-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `args` expecting a quick exit `code` whose stderr holds every one of `says`. */
async function refused(args, code, ...says) {
  const result = await runCli(args, { timeout: KILL_MS });
  expect(result.signal, `still running after ${KILL_MS} ms: ${args.join(' ')}`).toBeNull();
  expect(result.stderr).not.toMatch(/\n\s+at /); // a message, never a stack
  for (const text of says) expect(result.stderr).toContain(text);
  expect(result.code).toBe(code);
  expect(result.ms).toBeLessThan(QUICK_MS);
  return result;
}

describe('attention-lab reads regular files only', () => {
  for (const device of ['/dev/zero', '/dev/urandom']) {
    it(`info ${device} exits 1 at once saying it is a device, not a file`, async () => {
      await refused(['info', device], 1, `attention-lab: ${device}: is a character device, not a regular file`);
    });
  }

  it('figure of /dev/zero exits 1 at once as info does', async () => {
    await refused(['figure', '/dev/zero', '-o', join(dir, 'zero.svg')], 1, '/dev/zero: is a character device, not a regular file');
  });

  it('a FIFO with no writer is refused without blocking on its open', async () => {
    const fifo = join(dir, 'attention.npy');
    execFileSync('mkfifo', [fifo]);
    await refused(['info', fifo], 1, `${fifo}: is a FIFO, not a regular file`);
    await refused(['figure', fifo, '-o', join(dir, 'fifo.svg')], 1, `${fifo}: is a FIFO, not a regular file`);
  });

  it('a directory is refused naming it', async () => {
    const folder = join(dir, 'folder.npy');
    await mkdir(folder);
    await refused(['info', folder], 1, `${folder}: is a directory, not a regular file`);
  });

  it('a symbolic link to a regular file is read as the file', async () => {
    const link = join(dir, 'linked.safetensors');
    await symlink(join(REPO, INDUCTION), link);
    const { code, stdout } = await runCli(['info', link]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}attention +float32 +\[2, 4, 24, 24\]$/m);
  });
});

describe("attention-lab checks a file's size before reading it", () => {
  it('a sparse 1.5 GiB file is refused by its size, before any read, naming the 1 GiB limit', async () => {
    const sparse = join(dir, 'sparse.npy');
    await writeFile(sparse, '');
    await truncate(sparse, 1.5 * GIB);
    const { ms } = await refused(['info', sparse], 1, `${sparse}: 1610612736 bytes (1.5 GiB), over the 1 GiB (1073741824-byte) limit of a file to read`);
    console.log(`sparse 1.5 GiB file refused in ${ms.toFixed(0)} ms`);
  });
});

describe('attention-lab never writes over its input', () => {
  /** A copy of the induction example in the temp dir; -> its path and bytes. */
  async function input(name) {
    const path = join(dir, name);
    await copyFile(join(REPO, INDUCTION), path);
    return { path, bytes: await readFile(path) };
  }

  // The inputs are named like figures (same.svg): OUT must be named for its format, and the
  // readers know a safetensors file by its bytes whatever its name.
  it('-o naming FILE itself exits 2 and leaves FILE as it was', async () => {
    const { path, bytes } = await input('same.svg');
    await refused(['figure', path, '--index', '0,0', '--format', 'svg', '-o', path], 2, `-o ${path} is the input file ${path}: nothing written`);
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it('-o naming FILE by another path (relative, with ..) exits 2', async () => {
    const { path, bytes } = await input('spelled.svg');
    const other = join(relative(REPO, dir), '..', dir.split('/').pop(), 'spelled.svg');
    await refused(['figure', path, '--index', '0,0', '--format', 'svg', '-o', other], 2, 'is the input file');
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it('-o naming a hard link or a symbolic link to FILE (the same inode) exits 2', async () => {
    const { path, bytes } = await input('inode.safetensors');
    await link(path, join(dir, 'hard.svg'));
    await symlink(path, join(dir, 'soft.html'));
    await refused(['figure', path, '--index', '0,0', '-o', join(dir, 'hard.svg')], 2, `-o ${join(dir, 'hard.svg')} is the input file ${path}`);
    await refused(['figure', path, '--view', 'heads', '-o', join(dir, 'soft.html')], 2, 'is the input file');
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it('-o naming the input of --view pipeline exits 2 as well', async () => {
    const { path, bytes } = await input('qkv.html');
    await refused(['figure', path, '--view', 'pipeline', '--format', 'html', '-o', path], 2, 'is the input file');
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });
});
