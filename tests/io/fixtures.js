// The files written by make_fixtures.py, as bytes, in Node and in Chromium alike: Vite inlines
// each as a base64 data URL (?url&inline), so no test reads the file system.
import manifest from './fixtures/manifest.json';

const urls = import.meta.glob('./fixtures/*', { query: '?url&inline', import: 'default', eager: true });

export { manifest };

/** The bytes of fixture `name`, a fresh Uint8Array. */
export function fixture(name) {
  const url = urls[`./fixtures/${name}`];
  if (!url) throw new Error(`no fixture ${name}: run /usr/bin/python3 tests/io/make_fixtures.py`);
  const binary = atob(url.slice(url.indexOf(',') + 1));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The float32 values the manifest expects, from their little-endian bits. */
export function expectedData(entry) {
  const bytes = Uint8Array.from(atob(entry.f32), (c) => c.charCodeAt(0));
  return new Float32Array(bytes.buffer);
}

/** Index of the first element whose float32 bits differ (NaN payloads included), or -1. */
export function firstBitDifference(a, b) {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  if (x.length !== y.length) return Math.min(x.length, y.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}
