// Node 20 has relaxed SIMD behind a flag (on by default from Node 22). The bench scripts that time
// the relaxed build or read its ceiling re-run themselves with the flag, so one command measures both.
import { spawnSync } from 'node:child_process';
import { relaxedSimdSupported } from '../../../web/src/index.js';

export const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';

/** Whether this Node needs RELAXED_FLAG for relaxed SIMD. */
export const nodeNeedsRelaxedFlag = () => Number(process.versions.node.split('.')[0]) < 22;

/**
 * Where this Node needs the flag and this process runs without it: runs this script again with it,
 * the same arguments and output, and exits with its status. Otherwise returns.
 */
export function rerunWithRelaxedSimd() {
  if (relaxedSimdSupported() || !nodeNeedsRelaxedFlag() || process.execArgv.includes(RELAXED_FLAG)) return;
  const child = spawnSync(process.execPath, [...process.execArgv, RELAXED_FLAG, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
