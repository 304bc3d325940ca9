// Serves the built explorer (dist/site/ by default) and prints its URL:
//   node tools/serve.mjs [folder] [--port N]      (npm run serve:site)
// Without --port the OS picks a free port. Ctrl+C stops it.
import { fileURLToPath } from 'node:url';
import { startServer } from './static-server.mjs';

function parseArgs(argv) {
  const args = { folder: fileURLToPath(new URL('../dist/site/', import.meta.url)), port: 0 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') args.port = Number(argv[++i]);
    else args.folder = argv[i];
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
    throw new RangeError(`serve: --port must be an integer in [0, 65535], got ${args.port}`);
  }
  return args;
}

const { folder, port } = parseArgs(process.argv.slice(2));
try {
  const { url, root } = await startServer(folder, port);
  console.log(`attention-lab explorer: ${url}  (serving ${root}; Ctrl+C stops)`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
