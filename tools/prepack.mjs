// npm's prepack step (`npm pack`, `npm publish`): the tarball must hold the two wasm builds
// (web/wasm/ is gitignored, built by tools/build.sh), so build them when any is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const needed = ['simd', 'scalar'].flatMap((v) => [`web/wasm/attention-${v}.js`, `web/wasm/attention-${v}.wasm`]);
const missing = needed.filter((file) => !existsSync(`${root}/${file}`));
if (missing.length > 0) {
  console.error(`prepack: ${missing.join(', ')} missing: building the wasm modules (tools/build.sh wasm)`);
  // stdout is npm pack's own output (the tarball name): the build's log goes to stderr.
  execFileSync('bash', ['tools/build.sh', 'wasm'], { cwd: root, stdio: ['ignore', 2, 2] });
}
