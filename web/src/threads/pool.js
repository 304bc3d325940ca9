// A fixed number of worker slots (worker-main.js), each with its own wasm module instance, and the
// request/response bookkeeping around them: every request gets an id, its Promise settles with
// the worker's answer, and an error raised in the worker rejects it as the same TypeError or
// RangeError with the same message.
//
// A worker that dies (a crash, a failed script load, an exit) is told to the caller once: the
// requests it still owed reject with the error. Its slot is then empty, and the next request for
// that slot starts a fresh worker there first, so one death never fails later calls (replacing on
// demand, not at once, keeps a worker that cannot start from being respawned in a loop).
//
// Each worker started gets a generation number, unique in the pool. State a worker keeps (a remote
// layer, parallel.js) is reached only through requestTo(index, generation): once its worker died,
// such a request rejects instead of reaching whatever the fresh worker in that slot keeps under
// the same name.
import { errorFromMessage } from './messages.js';
import { spawnWorker } from './worker-spawn.js';

const disposedError = () => new Error('attention-lab: this parallel attention was disposed');

/** The rejection of requestTo() when the worker of that generation is gone. */
export class WorkerGoneError extends Error {
  constructor() {
    super('attention-lab: the pool worker that held this state died (its slot runs a fresh worker, or none)');
    this.name = 'WorkerGoneError';
  }
}

export class WorkerPool {
  /**
   * Starts `size` workers and loads the module in each: loadOptions { simd, wasmUrl, wasmBinary }.
   * spawn: () => Promise<endpoint> (worker-spawn.js), replaceable for tests.
   */
  static async start(size, loadOptions, spawn = spawnWorker) {
    const pool = new WorkerPool(size, loadOptions, spawn);
    try {
      await Promise.all(pool.workers.map((worker) => pool.revive(worker)));
    } catch (error) {
      pool.dispose();
      throw error;
    }
    return pool;
  }

  constructor(size, loadOptions, spawn) {
    this.loadOptions = loadOptions;
    this.spawn = spawn;
    // endpoint null: no live worker in the slot (not started yet, or dead); generation: that of
    // the last worker started in the slot.
    this.workers = Array.from({ length: size }, () => ({ endpoint: null, generation: 0, pending: new Map(), reviving: null }));
    this.nextId = 1;
    this.nextGeneration = 1;
    this.disposed = false;
  }

  get size() {
    return this.workers.length;
  }

  /** Worker indices, the least busy first (fewest requests in flight); empty slots last. */
  byLoad() {
    const load = (index) => (this.workers[index].endpoint === null ? Infinity : this.workers[index].pending.size);
    return this.workers.map((worker, index) => index).sort((a, b) => load(a) - load(b));
  }

  /** -> Promise of the worker's result. `transfer`: buffers this library created, moved rather than copied. */
  request(index, message, transfer = []) {
    if (this.disposed) return Promise.reject(disposedError());
    const worker = this.workers[index];
    if (worker.endpoint === null) return this.revive(worker).then(() => this.request(index, message, transfer));
    return this.post(worker, message, transfer);
  }

  /** -> Promise of the generation of the live worker in slot `index` (started first if the slot is empty). */
  async ready(index) {
    if (this.disposed) throw disposedError();
    const worker = this.workers[index];
    if (worker.endpoint === null) await this.revive(worker);
    return worker.generation;
  }

  /**
   * request() to one worker only: the one of `generation` in slot `index`. Rejects with a
   * WorkerGoneError once that worker died (never starts another); calls in flight when it dies
   * reject with the pool's "worker died" error.
   */
  requestTo(index, generation, message, transfer = []) {
    if (this.disposed) return Promise.reject(disposedError());
    const worker = this.workers[index];
    if (worker.endpoint === null || worker.generation !== generation) return Promise.reject(new WorkerGoneError());
    return this.post(worker, message, transfer);
  }

  /**
   * A sender for state kept on one worker (a remote layer or model): requestTo() that worker only,
   * with a worker gone before a call, or dying during it, turned into lost(message, cause), the
   * caller's own error; other rejections pass as they are.
   */
  pinned(index, generation, lost) {
    return (message) =>
      this.requestTo(index, generation, message).catch((error) => {
        if (error instanceof WorkerGoneError || (!this.disposed && !this.lives(index, generation))) throw lost(message, error);
        throw error;
      });
  }

  /** True while the worker of `generation` in slot `index` lives. */
  lives(index, generation) {
    const worker = this.workers[index];
    return worker.endpoint !== null && worker.generation === generation;
  }

  /** A fresh worker in an empty slot, its module loaded (one start at a time per slot). */
  revive(worker) {
    worker.reviving ??= this.startWorker(worker).finally(() => {
      worker.reviving = null;
    });
    return worker.reviving;
  }

  async startWorker(worker) {
    const endpoint = await this.spawn();
    if (this.disposed) {
      endpoint.terminate();
      throw disposedError();
    }
    worker.endpoint = endpoint;
    worker.generation = this.nextGeneration++;
    endpoint.onMessage((answer) => {
      if (worker.endpoint === endpoint) this.settle(worker, answer);
    });
    endpoint.onFailure((error) => this.fail(worker, endpoint, error));
    endpoint.onMessageError((error) => {
      if (worker.endpoint === endpoint) this.dropOldest(worker, error);
    });
    try {
      await this.post(worker, { type: 'init', options: this.loadOptions });
    } catch (error) {
      this.fail(worker, endpoint, error); // a worker that cannot load the module is no worker
      throw error;
    }
  }

  post(worker, message, transfer = []) {
    const { endpoint } = worker;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      worker.pending.set(id, { resolve, reject });
      endpoint.hold(true);
      try {
        endpoint.post({ id, ...message }, transfer);
      } catch (error) {
        // A DataCloneError: an argument that cannot be sent (a function, a Proxy). Nothing was sent.
        this.forget(worker, id);
        reject(error);
      }
    });
  }

  forget(worker, id) {
    worker.pending.delete(id);
    if (worker.pending.size === 0) worker.endpoint?.hold(false);
  }

  settle(worker, { id, result, error }) {
    const waiting = worker.pending.get(id);
    if (waiting === undefined) return;
    this.forget(worker, id);
    if (error === undefined) waiting.resolve(result);
    else waiting.reject(errorFromMessage(error));
  }

  /**
   * An answer that could not be deserialised: the worker is alive and answers in the order it was
   * asked (worker-main.js), so the answer lost is the oldest request's; only that one rejects.
   */
  dropOldest(worker, error) {
    const oldest = worker.pending.keys().next();
    if (oldest.done) return;
    const { reject } = worker.pending.get(oldest.value);
    this.forget(worker, oldest.value);
    reject(new Error(`attention-lab: a worker's answer could not be deserialised (${error?.message ?? error})`, { cause: error }));
  }

  /** A worker that died fails everything it still owed, once; its slot is refilled on demand. */
  fail(worker, endpoint, error) {
    if (worker.endpoint !== endpoint) return; // an old endpoint's late event, or the slot was emptied already
    worker.endpoint = null;
    endpoint.hold(false);
    endpoint.terminate();
    const reason = this.disposed
      ? disposedError()
      : new Error(`attention-lab: a pool worker died (${error?.message ?? error}); the next call starts a fresh one`, { cause: error });
    const owed = [...worker.pending.values()];
    worker.pending.clear();
    for (const { reject } of owed) reject(reason);
  }

  /** Terminates every worker; requests still in flight reject. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    for (const worker of this.workers) if (worker.endpoint !== null) this.fail(worker, worker.endpoint, null);
  }
}
