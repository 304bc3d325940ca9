// A fixed set of workers (worker-main.js), each with its own wasm module instance, and the
// request/response bookkeeping around them: every request gets an id, its Promise settles with
// the worker's answer, and an error raised in the worker rejects it as the same TypeError or
// RangeError with the same message.
import { errorFromMessage } from './messages.js';
import { spawnWorker } from './worker-spawn.js';

export class WorkerPool {
  /** Spawns `size` workers and loads the module in each: loadOptions { simd, wasmUrl, wasmBinary }. */
  static async start(size, loadOptions) {
    const endpoints = await Promise.all(Array.from({ length: size }, () => spawnWorker()));
    const pool = new WorkerPool(endpoints);
    try {
      await Promise.all(endpoints.map((_, index) => pool.request(index, { type: 'init', options: loadOptions })));
    } catch (error) {
      pool.dispose();
      throw error;
    }
    return pool;
  }

  constructor(endpoints) {
    this.workers = endpoints.map((endpoint) => ({ endpoint, pending: new Map(), failure: null }));
    this.nextId = 1;
    this.disposed = false;
    this.workers.forEach((worker) => {
      worker.endpoint.onMessage((answer) => this.settle(worker, answer));
      worker.endpoint.onFailure((error) => this.fail(worker, error));
    });
  }

  get size() {
    return this.workers.length;
  }

  /** Worker indices, the least busy first (fewest requests in flight). */
  byLoad() {
    return this.workers.map((worker, index) => index).sort((a, b) => this.workers[a].pending.size - this.workers[b].pending.size);
  }

  /** -> Promise of the worker's result. `transfer`: buffers this library created, moved rather than copied. */
  request(index, message, transfer = []) {
    const worker = this.workers[index];
    if (this.disposed) return Promise.reject(new Error('attention-lab: this parallel attention was disposed'));
    if (worker.failure) return Promise.reject(worker.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      worker.pending.set(id, { resolve, reject });
      worker.endpoint.hold(true);
      try {
        worker.endpoint.post({ id, ...message }, transfer);
      } catch (error) {
        // A DataCloneError: an argument that cannot be sent (a function, a Proxy). Nothing was sent.
        worker.pending.delete(id);
        if (worker.pending.size === 0) worker.endpoint.hold(false);
        reject(error);
      }
    });
  }

  settle(worker, { id, result, error }) {
    const waiting = worker.pending.get(id);
    if (waiting === undefined) return;
    worker.pending.delete(id);
    if (worker.pending.size === 0) worker.endpoint.hold(false);
    if (error === undefined) waiting.resolve(result);
    else waiting.reject(errorFromMessage(error));
  }

  /** A worker that died (crash, failed script load, terminate) fails everything it still owed. */
  fail(worker, error) {
    worker.failure ??= this.disposed ? new Error('attention-lab: this parallel attention was disposed') : error;
    for (const { reject } of worker.pending.values()) reject(worker.failure);
    worker.pending.clear();
    worker.endpoint.hold(false);
  }

  /** Terminates every worker; requests still in flight reject. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    for (const worker of this.workers) {
      this.fail(worker, null);
      worker.endpoint.terminate();
    }
  }
}
