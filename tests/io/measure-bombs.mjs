// Times one bomb of tests/io/bombs.js through readTensors, in this process, and prints the
// outcome, the wall time and the peak RSS above the RSS before the call (the bomb's own bytes
// already built). One bomb per process, so each peak is its own:
//   node tests/io/measure-bombs.mjs shared-npz|huge-npz|lying-npz|safetensors-40|safetensors-400
import { readTensors } from '../../web/io/index.js';
import { hugeMemberNpz, lyingMemberNpz, sharedMemberNpz, sharedRegionSafetensors } from './bombs.js';

const BOMBS = {
  'shared-npz': () => ['shared.npz', sharedMemberNpz()],
  'huge-npz': () => ['huge.npz', hugeMemberNpz()],
  'lying-npz': () => ['lying.npz', lyingMemberNpz()],
  'safetensors-40': () => ['shared40.safetensors', sharedRegionSafetensors(40)],
  'safetensors-400': () => ['shared400.safetensors', sharedRegionSafetensors(400)],
};

const which = process.argv[2];
if (!BOMBS[which]) throw new Error(`name one of ${Object.keys(BOMBS).join(', ')}`);
const [name, bytes] = BOMBS[which]();
const rssBefore = process.memoryUsage().rss;
const start = performance.now();
let outcome;
try {
  const { tensors } = await readTensors(bytes, { name });
  outcome = `ok: ${Object.keys(tensors).length} tensors`;
} catch (error) {
  outcome = `${error.constructor.name}: ${error.message}`;
}
const seconds = (performance.now() - start) / 1000;
const peakMiB = process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
console.log(`${which} (${bytes.length} bytes): ${outcome}`);
console.log(`  ${seconds.toFixed(3)} s, peak RSS ${peakMiB.toFixed(0)} MiB (${(peakMiB - rssBefore / 2 ** 20).toFixed(0)} MiB over the RSS before the call)`);
