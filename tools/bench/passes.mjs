// npm run bench:passes: where the fused forward's time goes on this machine, in one command, for
// every build: tools/bench/sdpa_passes.cpp (the loop of cpp/src/sdpa_fused.cpp with each pass
// timed on its own) built to wasm SIMD and relaxed SIMD from the libraries of `npm run build:wasm`
// and run under this Node against the ceilings this process reads (lib/ceiling.mjs), then natively
// (build/bench_passes, AVX2+FMA against its own probe). The first step on a machine whose
// efficiencies read low (docs/performance.md, "Measuring another machine"): if the products lose,
// the tile is the suspect (and the probe's reading at the tile's number of chains, printed first,
// tells whether its chains' latency is the cause); if the softmax does, the exp.
// Usage: node tools/bench/passes.mjs [T ...]   (default sdpa_passes.cpp's: 512 1024 2048)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASM_TILE_CHAINS, ceilingByChains, ceilingText, chainsText, higherCeilings, measureCeilings } from './lib/ceiling.mjs';
import { describeMachine } from './lib/machine.mjs';
import { RELAXED_FLAG, nodeNeedsRelaxedFlag, rerunWithRelaxedSimd } from './lib/relaxed-flag.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sizes = process.argv.slice(2).filter((a) => /^\d+$/.test(a));
rerunWithRelaxedSimd(); // to read the relaxed_madd ceiling too

// The wasm builds: the library each links and the ceiling it is read against (lib/ceiling.mjs).
const BUILDS = [
  { name: 'wasm simd', lib: 'libattnlab_simd.a', flags: [], ceiling: 'simd' },
  { name: 'wasm relaxed', lib: 'libattnlab_relaxed.a', flags: ['-mrelaxed-simd'], ceiling: 'relaxed' },
];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr?.trim() ?? `exit ${result.status}`}`);
  }
  return result.stdout;
}

console.log(describeMachine().text);
// The highest of three readings: a low one is time another job took (lib/ceiling.mjs).
let ceilings = await measureCeilings();
for (let i = 0; i < 2; i++) ceilings = higherCeilings(ceilings, await measureCeilings());
console.log(`${ceilingText(ceilings)}, the highest of 3 readings`);
// The probe again with fewer chains: the products' tile keeps WASM_TILE_CHAINS of them in flight, so
// its reading there is what the products can reach while the pipes wait on each chain's latency.
for (const relaxed of [false, true]) {
  const rows = await ceilingByChains({ relaxed });
  if (rows) console.log(chainsText(relaxed ? 'relaxed_madd' : 'mul+add', rows));
}
console.log(`(the products' register tile holds ${WASM_TILE_CHAINS} accumulators: where its count reads well under the highest, the chains' latency bounds the products; docs/performance.md)\n`);

const missing = BUILDS.map((b) => path.join(root, 'build-wasm', b.lib)).filter((lib) => !existsSync(lib));
if (missing.length > 0) {
  console.log(`skipping wasm: ${missing.map((m) => path.relative(root, m)).join(', ')} missing (npm run build:wasm)`);
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attnlab-passes-'));
  try {
    for (const build of BUILDS) {
      const ceiling = ceilings[build.ceiling]?.gflops;
      if (!ceiling) {
        console.log(`skipping ${build.name}: this engine has no relaxed SIMD`);
        continue;
      }
      const out = path.join(dir, `${build.ceiling}.js`);
      // Every em++ link runs acorn from Node; Debian installs it in /usr/share/nodejs (docs/toolchain.md).
      run('em++', ['-std=c++17', '-O3', '-msimd128', ...build.flags, '-DATTNLAB_SIMD=1', '-Icpp/include', '-I.deps/xsimd/usr/include',
        '-sALLOW_MEMORY_GROWTH=1', '-sENVIRONMENT=node', 'tools/bench/sdpa_passes.cpp', path.join('build-wasm', build.lib), '-o', out],
      { env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
      if (build.ceiling === 'relaxed') run(process.execPath, ['tools/wasm/relaxed-opcodes.mjs', out.replace(/\.js$/, '.wasm')]);
      const flags = ['--no-experimental-fetch', ...(build.ceiling === 'relaxed' && nodeNeedsRelaxedFlag() ? [RELAXED_FLAG] : [])];
      console.log(`== ${build.name} (Node ${process.version}), against the ${build.ceiling === 'relaxed' ? 'relaxed_madd' : 'mul+add'} ceiling ${ceiling.toFixed(1)} GFLOP/s`);
      console.log(run(process.execPath, [...flags, out, `--ceiling=${ceiling}`, ...sizes]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const native = path.join(root, 'build', 'bench_passes');
if (existsSync(native)) {
  console.log('== native (build/bench_passes), against its own AVX2+FMA probe');
  console.log(execFileSync(native, sizes, { encoding: 'utf8' }));
} else {
  console.log('skipping native: build/bench_passes missing (npm run build:native)');
}
