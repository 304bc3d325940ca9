// A remote layer (loadAttention({ threads }).selfAttention(...)) belongs to one worker. When that
// worker dies and the pool starts a fresh one in its slot, the fresh worker numbers its layers from
// the start again; the old handle must never reach them (issue 37: A.forward returned B's output and
// A.setParameters rewrote B's weights). Every method of the lost handle rejects with an Error that
// says the layer was lost with its worker, however many layers are created later.
//
// The workers are captured by wrapping the Worker class the pool constructs (worker_threads.Worker
// in Node, the global Worker in Chromium) and killed from outside, as a crash would.
import { afterEach, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { isNode } from '../../../web/src/boundary/loader.js';

/**
 * Wraps the Worker class so that every worker started afterwards is recorded; -> { workers, kill, restore }.
 * kill() ends every recorded worker the way a crash does: Node's worker emits 'exit'; a Web Worker
 * that is terminate()d fires nothing, so the 'error' event a crashed one fires is dispatched.
 */
async function captureWorkers() {
  const workers = [];
  if (isNode()) {
    const [moduleName, threadsName] = ['node:module', 'node:worker_threads']; // not resolved by the browser build
    const { createRequire, syncBuiltinESMExports } = await import(/* @vite-ignore */ moduleName);
    const threads = createRequire(import.meta.url)(threadsName);
    const Original = threads.Worker;
    threads.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        workers.push(this);
      }
    };
    syncBuiltinESMExports(); // the pool's import('node:worker_threads') now sees the wrapper
    const exited = (worker) => new Promise((resolve) => worker.once('exit', resolve));
    return {
      workers,
      kill: () => Promise.all(workers.map((worker) => Promise.all([exited(worker), worker.terminate()]))),
      restore() {
        threads.Worker = Original;
        syncBuiltinESMExports();
      },
    };
  }
  const Original = globalThis.Worker;
  globalThis.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      workers.push(this);
    }
  };
  return {
    workers,
    async kill() {
      for (const worker of workers) {
        worker.terminate();
        worker.dispatchEvent(new ErrorEvent('error', { message: 'killed by the test' }));
      }
    },
    restore() {
      globalThis.Worker = Original;
    },
  };
}

const LOST = /^selfAttention\.(forward|backward|step|parameters|setParameters): this layer was lost with its worker/;

describe('a layer handle whose worker was replaced', () => {
  let capture;
  let attn;
  afterEach(() => {
    attn?.dispose();
    capture?.restore();
  });

  it('rejects every call with "lost with its worker" and never reaches the layers made later', async () => {
    capture = await captureWorkers();
    attn = await loadAttention({ threads: 2, inlineBelow: 0 });
    expect(capture.workers).toHaveLength(2);
    const options = { dIn: 2, seed: 1 };
    const x = [
      [1, 2],
      [3, 4],
    ];
    const a = await attn.selfAttention(options);
    const aOutput = (await a.forward(x)).output;

    await capture.kill();
    // Two fresh layers, on fresh workers that number their layers from the start again.
    const b = await attn.selfAttention({ dIn: 2, seed: 2 });
    const c = await attn.selfAttention({ dIn: 2, seed: 3 });
    const bBefore = await b.parameters();
    const bOutput = (await b.forward(x)).output;
    expect(bOutput.data, 'B differs from A, so a call reaching B would be visible').not.toEqual(aOutput.data);

    await expect(a.forward(x)).rejects.toThrow(LOST);
    await expect(a.backward(x)).rejects.toThrow(LOST);
    await expect(a.step(0.1)).rejects.toThrow(LOST);
    await expect(a.parameters()).rejects.toThrow(LOST);
    await expect(a.setParameters({ wv: { data: new Float32Array(4).fill(1), shape: [2, 2] } })).rejects.toThrow(LOST);
    const error = await a.forward(x).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('create the layer again');

    // B and C are untouched: the same weights, the same output as before A's calls.
    expect(await b.parameters()).toEqual(bBefore);
    expect((await b.forward(x)).output).toEqual(bOutput);
    await expect(c.forward(x)).resolves.toBeDefined();

    // Forever: more layers later change nothing; dispose() of a lost layer resolves (nothing is left to free).
    for (let i = 0; i < 3; i++) await attn.selfAttention({ dIn: 2, seed: 10 + i });
    await expect(a.forward(x)).rejects.toThrow(LOST);
    await expect(a.dispose()).resolves.toBeUndefined();
    await expect(a.forward(x)).rejects.toThrow('selfAttention.forward: this layer was disposed');
  });

  it('a transformer on the pool is pinned to its worker the same way', async () => {
    capture = await captureWorkers();
    attn = await loadAttention({ threads: 1 });
    const config = { vocab: 8, dModel: 8, layers: 1, heads: 2, maxLength: 6, positions: 'learned', mlp: 0 };
    const tokens = { data: Int32Array.of(1, 2, 3, 4), shape: [1, 4] };
    const a = await attn.transformer({ ...config, seed: 1 });
    await a.forward(tokens);
    await capture.kill();
    const b = await attn.transformer({ ...config, seed: 2 }); // model 1 of the fresh worker, as A was of the old
    const bBefore = await b.parameters();
    const LOST_MODEL = /^transformer\.(forward|gradients|trainStep|parameters|setParameters): this model was lost with its worker/;
    await expect(a.forward(tokens)).rejects.toThrow(LOST_MODEL);
    await expect(a.trainStep(tokens, { optimizer: { learningRate: 0.1 } })).rejects.toThrow(LOST_MODEL);
    await expect(a.setParameters(bBefore)).rejects.toThrow(LOST_MODEL);
    expect(await b.parameters()).toEqual(bBefore);
    await expect(a.dispose()).resolves.toBeUndefined();
  });

  it('a call in flight when its worker dies rejects as lost too', async () => {
    capture = await captureWorkers();
    attn = await loadAttention({ threads: 1, inlineBelow: 0 });
    const a = await attn.selfAttention({ dIn: 16, seed: 1 });
    const big = { data: new Float32Array(1024 * 16).fill(0.5), shape: [1024, 16] }; // tens of ms of work: still running when killed
    const inFlight = a.forward(big);
    await capture.kill();
    await expect(inFlight).rejects.toThrow(LOST);
  });
});
