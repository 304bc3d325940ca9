// Runs the command as a user does (node bin/attention-lab.mjs ...), in its own process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/attention-lab.mjs', import.meta.url));

/** -> { code, stdout, stderr } of `node bin ...args` (never rejects on a non-zero exit). */
export function runCli(args, { bin = BIN, cwd = REPO } = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr });
    });
  });
}
