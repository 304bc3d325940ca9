// The wasm builds every suite runs against (not a test file): SIMD, relaxed SIMD where the engine
// has it (Chromium; Node 22+, or Node 20 with the flag vitest.config.js passes), and scalar.
import { afterAll, beforeAll, expect } from 'vitest';
import { loadAttention, relaxedSimdSupported } from '../../../web/src/index.js';

/** Every wasm build this engine runs: every suite runs once per backend (describe.each). */
export const BACKENDS = [
  { simd: true, backend: 'wasm-simd' },
  ...(relaxedSimdSupported() ? [{ simd: 'relaxed', backend: 'wasm-relaxed' }] : []),
  { simd: false, backend: 'wasm-scalar' },
];

/** The entry of BACKENDS of one backend name. */
export const backendNamed = (name) => BACKENDS.find((b) => b.backend === name);

/**
 * For a describe block: { attn, parallel }, filled before its tests run: the build `backend` (as
 * loadBackend) and a pool of 2 workers on it that takes every call (inlineBelow: 0), disposed after.
 */
export function backendWithPool({ simd, backend }) {
  const apis = { attn: null, parallel: null };
  beforeAll(async () => {
    apis.attn = await loadBackend({ simd, backend });
    apis.parallel = await loadAttention({ simd, threads: 2, inlineBelow: 0 });
  });
  afterAll(() => apis.parallel?.dispose());
  return apis;
}

/** Loads the requested build and checks that it is the one that answered. */
export async function loadBackend({ simd, backend }) {
  const attn = await loadAttention({ simd });
  expect(attn.backend).toBe(backend);
  return attn;
}

/**
 * What a leak in wasm memory would change: the heap size, where the next allocation lands, and
 * the C stack pointer. Equal before and after a loop of calls means not one byte stayed behind.
 */
export function heapState(module) {
  const probe = module._malloc(64);
  module._free(probe);
  return { heapBytes: module.HEAPU8.length, nextMalloc: probe, stackPointer: module.stackSave() };
}
