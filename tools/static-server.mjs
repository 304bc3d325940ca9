// A tiny static file server with no dependencies (used by tools/serve.mjs and by the explorer's
// browser checks). Content types matter: browsers compile .wasm by streaming only when it is served as
// application/wasm, and refuse ES modules served without a JavaScript type. Every file is sent with
// `Access-Control-Allow-Origin: *`: a blog post on another origin (another port, or file://) loads
// elements.js as a module script and its .wasm with fetch, and both are CORS requests.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a URL path names inside root, or null when it would leave root. */
function fileFor(root, urlPath) {
  const path = normalize(decodeURIComponent(urlPath.split('?')[0].split('#')[0]));
  const file = join(root, path.endsWith('/') ? join(path, 'index.html') : path);
  return file === root || file.startsWith(root + sep) ? file : null;
}

async function handle(root, request, response) {
  const file = fileFor(root, request.url ?? '/');
  const info = file && (await stat(file).catch(() => null));
  if (!info || !info.isFile()) {
    response.writeHead(file ? 404 : 403, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(file ? 'not found\n' : 'forbidden\n');
    return;
  }
  response.writeHead(200, {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-cache',
    'access-control-allow-origin': '*',
  });
  if (request.method === 'HEAD') response.end();
  else createReadStream(file).pipe(response);
}

/**
 * Serves the files under `folder` on 127.0.0.1:`port` (0: a free port chosen by the OS).
 * -> Promise<{ url, close() }>; rejects when folder has no index.html.
 */
export async function startServer(folder, port = 0) {
  const root = resolve(folder);
  if (!(await stat(join(root, 'index.html')).catch(() => null))) {
    throw new Error(`serve: ${join(root, 'index.html')} does not exist; build the site first (npm run build:site)`);
  }
  const server = createServer((request, response) => {
    handle(root, request, response).catch((error) => {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`${error.message}\n`);
    });
  });
  await new Promise((done, fail) => server.once('error', fail).listen(port, '127.0.0.1', done));
  return {
    root,
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((done) => server.close(done)),
  };
}
