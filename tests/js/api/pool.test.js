// The worker pool (web/src/threads/pool.js) when workers die or answers get lost: a dead worker fails what
// it owed once and is replaced on demand, a message that cannot be deserialised rejects only its
// own request, requestTo never reaches a worker of another generation, and a disposed remote layer
// is dropped from its worker's map. The bookkeeping runs against fake endpoints (so a death can be
// staged in Node and Chromium alike); the layer map and a real exit against real workers.
import { describe, expect, it } from 'vitest';
import { isNode } from '../../../web/src/boundary/loader.js';
import { WorkerGoneError, WorkerPool } from '../../../web/src/threads/pool.js';

/** An endpoint that answers { type: 'echo', value } with value, 'init' with {}, and keeps 'hold' requests until release(). */
function fakeEndpoint() {
  const listeners = { message: [], failure: [], messageError: [] };
  const held = [];
  const endpoint = {
    terminated: false,
    post(message) {
      if (message.type === 'hold') held.push(message);
      else queueMicrotask(() => endpoint.answer(message));
    },
    answer(message) {
      if (endpoint.terminated) return;
      const result = message.type === 'init' ? {} : message.value;
      for (const fn of listeners.message) fn({ id: message.id, result });
    },
    release: () => endpoint.answer(held.shift()),
    onMessage: (fn) => listeners.message.push(fn),
    onFailure: (fn) => listeners.failure.push(fn),
    onMessageError: (fn) => listeners.messageError.push(fn),
    hold: () => {},
    terminate: () => {
      endpoint.terminated = true;
    },
    die: (error) => listeners.failure.forEach((fn) => fn(error)),
    loseAnswer: (error) => listeners.messageError.forEach((fn) => fn(error)),
  };
  return endpoint;
}

async function fakePool(size) {
  const spawned = [];
  const spawn = async () => {
    const endpoint = fakeEndpoint();
    spawned.push(endpoint);
    return endpoint;
  };
  const pool = await WorkerPool.start(size, {}, spawn);
  return { pool, spawned };
}

describe('the worker pool', () => {
  it('a dead worker fails what it owed once; later requests, to it and by load, run on a fresh worker', async () => {
    const { pool, spawned } = await fakePool(2);
    const owed = pool.request(0, { type: 'hold', value: 'never' });
    spawned[0].die(new Error('out of memory'));
    await expect(owed).rejects.toThrow(/a pool worker died \(out of memory\)/);
    // The dead worker has no request in flight: it must not be where every request goes to fail.
    for (let i = 0; i < 4; i++) await expect(pool.request(pool.byLoad()[0], { type: 'echo', value: i })).resolves.toBe(i);
    await expect(pool.request(0, { type: 'echo', value: 'again' })).resolves.toBe('again');
    expect(spawned).toHaveLength(3); // the two first workers and one replacement
    expect(spawned[0].terminated).toBe(true);
    pool.dispose();
  });

  it('an answer that cannot be deserialised rejects only its own request; the worker lives on', async () => {
    const { pool, spawned } = await fakePool(1);
    const first = pool.request(0, { type: 'hold', value: 1 });
    const second = pool.request(0, { type: 'hold', value: 2 });
    spawned[0].loseAnswer(new Error('DataCloneError'));
    await expect(first).rejects.toThrow(/a worker's answer could not be deserialised \(DataCloneError\)/);
    spawned[0].answer({ id: 999, type: 'echo', value: 'late' }); // an answer to no request: ignored
    spawned[0].release();
    spawned[0].release();
    await expect(second).resolves.toBe(2);
    await expect(pool.request(0, { type: 'echo', value: 3 })).resolves.toBe(3);
    expect(spawned).toHaveLength(1);
    pool.dispose();
  });

  it('requestTo reaches only the worker of its generation: after that one died, never its replacement', async () => {
    const { pool, spawned } = await fakePool(1);
    const generation = await pool.ready(0);
    await expect(pool.requestTo(0, generation, { type: 'echo', value: 'first' })).resolves.toBe('first');
    spawned[0].die(new Error('crash'));
    await expect(pool.requestTo(0, generation, { type: 'echo', value: 'dead' })).rejects.toThrow(WorkerGoneError);
    expect(spawned).toHaveLength(1); // requestTo never starts a worker
    const fresh = await pool.ready(0);
    expect(spawned).toHaveLength(2);
    expect(fresh).not.toBe(generation);
    await expect(pool.requestTo(0, generation, { type: 'echo', value: 'replaced' })).rejects.toThrow(WorkerGoneError);
    await expect(pool.requestTo(0, fresh, { type: 'echo', value: 'fresh' })).resolves.toBe('fresh');
    expect(pool.lives(0, generation)).toBe(false);
    expect(pool.lives(0, fresh)).toBe(true);
    pool.dispose();
    await expect(pool.requestTo(0, fresh, { type: 'echo', value: 1 })).rejects.toThrow('this parallel attention was disposed');
  });

  it('after dispose() requests reject, and a dying worker changes nothing', async () => {
    const { pool, spawned } = await fakePool(1);
    const owed = pool.request(0, { type: 'hold', value: 1 });
    pool.dispose();
    await expect(owed).rejects.toThrow('this parallel attention was disposed');
    spawned[0].die(new Error('late'));
    await expect(pool.request(0, { type: 'echo', value: 1 })).rejects.toThrow('this parallel attention was disposed');
    expect(spawned).toHaveLength(1);
  });
});

describe('real pool workers', () => {
  it("a disposed remote layer is dropped from its worker's map", async () => {
    const pool = await WorkerPool.start(1, {});
    try {
      const { layer } = await pool.request(0, { type: 'layer', name: 'selfAttention', options: { dIn: 2 } });
      await pool.request(0, { type: 'layerCall', layer, method: 'dispose', args: [] });
      await expect(pool.request(0, { type: 'layerCall', layer, method: 'parameters', args: [] })).rejects.toThrow(`no layer ${layer} on this worker`);
    } finally {
      pool.dispose();
    }
  });

  it.runIf(isNode())('a worker that exits is replaced by the next request', async () => {
    const pool = await WorkerPool.start(1, {});
    try {
      pool.workers[0].endpoint.terminate(); // the 'exit' event reaches the pool as a death
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { backend } = await pool.request(0, { type: 'init', options: {} });
      expect(backend).toMatch(/^wasm-/);
      const result = await pool.request(0, { type: 'api', name: 'maskedSoftmax', args: [[[0, 0]]] });
      expect(result.data).toEqual(Float32Array.of(0.5, 0.5));
    } finally {
      pool.dispose();
    }
  });
});
