// Starting a pool worker (worker-main.js) on the calling thread, in browsers (a module Web Worker)
// and in Node (worker_threads), behind one endpoint interface, so pool.js is the same code in both:
//   { post(message, transfer), onMessage(fn), onFailure(fn), onMessageError(fn), hold(busy), terminate() }
// onFailure: the worker is dead (an uncaught error, its script did not load, it exited);
// onMessageError: one answer could not be deserialised, the worker lives on.
// The worker's side of the channel is worker-port.js. (Kept apart so the worker's own module graph
// never contains this file, whose new Worker(...) bundlers would follow again.)
import { isNode } from '../boundary/loader.js';

// A specifier in a variable, so bundlers for the browser do not try to resolve a Node built-in.
const NODE_WORKER_THREADS = 'node:worker_threads';

/** A new worker running worker-main.js. */
export async function spawnWorker() {
  if (isNode()) {
    const { Worker } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_WORKER_THREADS);
    return nodeEndpoint(new Worker(new URL('./worker-main.js', import.meta.url)));
  }
  // This exact form (new Worker(new URL(literal, import.meta.url), { type: 'module' })) is what
  // Vite, webpack 5, Parcel and esbuild plugins recognise to bundle the worker script.
  return browserEndpoint(new Worker(new URL('./worker-main.js', import.meta.url), { type: 'module' }));
}

function nodeEndpoint(worker) {
  // Idle workers do not keep Node alive (a forgotten dispose() cannot hang a script); a worker
  // with requests in flight does, or the process could exit before their answers arrive.
  worker.unref();
  return {
    post: (message, transfer = []) => worker.postMessage(message, transfer),
    onMessage: (fn) => worker.on('message', fn),
    onFailure: (fn) => {
      worker.on('error', (error) => fn(error));
      worker.on('exit', (code) => fn(new Error(`attention-lab: a pool worker exited (code ${code})`)));
    },
    onMessageError: (fn) => worker.on('messageerror', (error) => fn(error)),
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
    terminate: () => worker.terminate(),
  };
}

function browserEndpoint(worker) {
  return {
    post: (message, transfer = []) => worker.postMessage(message, transfer),
    onMessage: (fn) => worker.addEventListener('message', (event) => fn(event.data)),
    onFailure: (fn) => {
      // A module script that fails to load gives an ErrorEvent without an error object.
      worker.addEventListener('error', (event) =>
        fn(event.error ?? new Error(`attention-lab: a pool worker failed: ${event.message || 'its script did not load'}`)),
      );
    },
    onMessageError: (fn) => worker.addEventListener('messageerror', () => fn(new Error('the message event carried no data'))),
    hold: () => {}, // a page's workers never keep anything alive
    terminate: () => worker.terminate(),
  };
}
