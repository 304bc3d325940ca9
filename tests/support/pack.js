// The package as a stranger gets it: `npm pack` of this repository, and the tarball installed
// (offline: the package has no dependencies) into a fresh project with no configuration.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** -> { work (a temp folder to remove), project (the fresh project), installed (its node_modules/attention-lab) }. */
export async function packAndInstall(prefix) {
  const work = await mkdtemp(join(tmpdir(), prefix));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO });
  const tarball = join(work, JSON.parse(stdout.slice(stdout.indexOf('[')))[0].filename);
  const project = join(work, 'app');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: project });
  return { work, project, installed: join(project, 'node_modules', 'attention-lab') };
}
