// The one script of a standalone file (standalone-html.js): a classic script, since a module
// script from file:// is refused, and read as text into the page (never imported). It inflates the
// page's archive, maps every virtual module URL ('attention-lab:/web/...') to a data: URL in an
// import map, answers fetch() of the virtual URLs (figures.css, the .wasm) from the archive, and
// imports the elements' entry. A failure shows as a note at the top of the page, led by `failed`
// (the page's words for "this figure could not start:", in its language).
// eslint-disable-next-line no-unused-vars -- boot() is called by the page standalone-html.js writes
async function boot(root, entry, failed) {
  try {
    const text = atob(document.getElementById('attention-lab-files').textContent.trim());
    const zipped = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const inflated = new Blob([zipped]).stream().pipeThrough(new DecompressionStream('gzip'));
    const all = new Uint8Array(await new Response(inflated).arrayBuffer());
    const newline = all.indexOf(10);
    const files = new Map();
    let at = newline + 1;
    for (const [path, size] of JSON.parse(new TextDecoder().decode(all.subarray(0, newline)))) {
      files.set(root + path, all.subarray(at, (at += size)));
    }
    const dataUrl = (bytes) => {
      let binary = '';
      for (let k = 0; k < bytes.length; k += 0x8000) binary += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
      return `data:text/javascript;base64,${btoa(binary)}`;
    };
    const imports = {};
    for (const [url, bytes] of files) if (url.endsWith('.js')) imports[url] = dataUrl(bytes);
    const map = Object.assign(document.createElement('script'), { type: 'importmap', textContent: JSON.stringify({ imports }) });
    document.head.append(map);
    const types = { css: 'text/css', wasm: 'application/wasm', js: 'text/javascript' };
    const fetchOutside = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const bytes = files.get(url);
      if (!bytes) return fetchOutside(input, init);
      return Promise.resolve(new Response(bytes.slice(), { headers: { 'content-type': types[url.split('.').pop()] ?? 'application/octet-stream' } }));
    };
    await import(root + entry);
  } catch (error) {
    const note = Object.assign(document.createElement('p'), { role: 'alert', textContent: `${failed} ${error.message}` });
    document.body.prepend(note);
    throw error;
  }
}
