// Contenders built inside a worker thread, driven from the main thread: a peer whose settings are
// fixed once per JS realm (onnxruntime-web's thread count) gets a realm of its own this way.
// Main thread: contendersInWorker(modulePath, exportName, config, options) -> proxy contenders.
// Worker: this same file, started with workerData; it builds exportName(config, options) and
// answers 'time' (the ms it measured around the call, so messaging is not timed), 'result' and
// 'release' requests.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (!isMainThread && workerData?.exportName) {
  const { modulePath, exportName, config, options } = workerData;
  const contenders = await (await import(modulePath))[exportName](config, options);
  parentPort.on('message', async ({ id, op, index }) => {
    const c = contenders[index];
    let reply;
    if (op === 'time') reply = await c.time();
    else if (op === 'result') reply = await c.result();
    else if (op === 'release') {
      for (const x of contenders) await x.release?.();
      parentPort.postMessage({ id });
      parentPort.close();
      return;
    }
    parentPort.postMessage({ id, reply });
  });
  parentPort.postMessage({ built: contenders.map(({ library, form, threads, error }) => ({ library, form, threads, error })) });
}

/** Proxy contenders (same interface as contender.mjs) for the ones exportName builds in a new worker. */
export async function contendersInWorker(modulePath, exportName, config, options) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { modulePath: String(modulePath), exportName, config, options } });
  const pending = new Map();
  let nextId = 0;
  const built = await new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', ({ built }) => resolve(built));
  });
  worker.on('message', ({ id, reply }) => pending.get(id)?.(reply));
  const ask = (op, index) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, (reply) => {
        pending.delete(id);
        resolve(reply);
      });
      worker.postMessage({ id, op, index });
    });
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await ask('release');
    await worker.terminate();
  };
  return built.map((meta, index) => (meta.error ? meta : { ...meta, time: () => ask('time', index), result: () => ask('result', index), release }));
}
