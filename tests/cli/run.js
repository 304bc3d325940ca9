// Runs the command as a user does (node bin/attention-lab.mjs ...), in its own process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/attention-lab.mjs', import.meta.url));

/**
 * -> { code, stdout, stderr, signal, ms } of `node bin ...args` (never rejects on a non-zero exit).
 * With `timeout` (ms) a command still running then is killed: code null, signal 'SIGKILL'.
 */
export function runCli(args, { bin = BIN, cwd = REPO, timeout = 0 } = {}) {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, maxBuffer: 64 << 20, timeout, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? null) : 0, signal: error?.signal ?? null, stdout, stderr, ms: performance.now() - start });
    });
  });
}
