// Inside a pool worker: the channel back to the thread that spawned it (worker-spawn.js), the
// same { post(message, transfer), onMessage(fn) } in a Web Worker and in a Node worker_threads worker.
import { isNode } from '../boundary/loader.js';

const NODE_WORKER_THREADS = 'node:worker_threads';

export async function workerPort() {
  if (isNode()) {
    // parentPort queues messages until a 'message' listener is attached, so nothing sent
    // during this import is lost.
    const { parentPort } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_WORKER_THREADS);
    return {
      post: (message, transfer = []) => parentPort.postMessage(message, transfer),
      onMessage: (fn) => parentPort.on('message', fn),
    };
  }
  return {
    post: (message, transfer = []) => globalThis.postMessage(message, transfer),
    onMessage: (fn) => globalThis.addEventListener('message', (event) => fn(event.data)),
  };
}
