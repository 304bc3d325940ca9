// A small PDF reader for the command's PDF output (Skia's, through Chromium's printing): the objects
// by number with their streams inflated, the pages, and the text each page shows, decoded through
// its fonts' ToUnicode maps (Chromium writes glyph ids, not characters). Enough for what Chromium
// writes (plain objects and an xref table, Flate streams, Type0 fonts); not a general PDF parser.
import { inflateSync } from 'node:zlib';

const OBJECT = /(\d+) 0 obj\s*/g;

/** -> Map(number -> { dict: the object's text before any stream, stream: Buffer | null (inflated) }). */
function objects(bytes) {
  const text = bytes.toString('latin1');
  const found = new Map();
  for (const m of text.matchAll(OBJECT)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    const streamAt = text.indexOf('stream', start);
    if (streamAt < 0 || streamAt > end) {
      found.set(Number(m[1]), { dict: text.slice(start, end), stream: null });
      continue;
    }
    const dict = text.slice(start, streamAt);
    const from = streamAt + 'stream'.length + (text[streamAt + 6] === '\r' ? 2 : 1);
    const length = dict.match(/\/Length (\d+)(?! \d+ R)/);
    const raw = bytes.subarray(from, length ? from + Number(length[1]) : text.indexOf('endstream', from));
    found.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
  }
  return found;
}

/** -> Map(glyph id -> text) from a ToUnicode CMap's bfchar and bfrange sections. */
function toUnicode(cmap) {
  const map = new Map();
  const unhex = (h) => String.fromCodePoint(...h.match(/.{4}/g).map((u) => parseInt(u, 16)));
  for (const [, body] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, cid, uni] of body.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) map.set(parseInt(cid, 16), unhex(uni));
  }
  for (const [, body] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, uni] of body.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      for (let c = parseInt(lo, 16); c <= parseInt(hi, 16); c++) map.set(c, String.fromCodePoint(parseInt(uni, 16) + c - parseInt(lo, 16)));
    }
  }
  return map;
}

/**
 * -> { version, info (the /Info dictionary's text), pages: [{ box: [w, h] in points, content (text),
 * texts: [string shown by each Tj or TJ] }], images (how many image XObjects the file holds) }.
 */
export function readPdf(bytes) {
  const all = objects(bytes);
  const ref = (dict, key) => Number(dict.match(new RegExp(`/${key} (\\d+) 0 R`))?.[1]);
  const pages = [...all.values()]
    .filter((o) => /\/Type \/Page\b(?!s)/.test(o.dict))
    .map((page) => {
      const fonts = new Map();
      const fontDict = page.dict.match(/\/Font <<([^>]*)>>/)?.[1] ?? '';
      for (const [, name, number] of fontDict.matchAll(/\/(\w+) (\d+) 0 R/g)) {
        const unicode = ref(all.get(Number(number)).dict, 'ToUnicode');
        fonts.set(name, unicode ? toUnicode(all.get(unicode).stream.toString('latin1')) : new Map());
      }
      const content = all.get(ref(page.dict, 'Contents')).stream.toString('latin1');
      const texts = [];
      let font = new Map();
      const decode = (hex) =>
        hex
          .match(/.{4}/g)
          .map((c) => font.get(parseInt(c, 16)) ?? '\ufffd')
          .join('');
      for (const [, fontName, shown, array] of content.matchAll(/\/(\w+) [\d.]+ Tf|<([0-9A-Fa-f]*)> Tj|\[([^\]]*)\] TJ/g)) {
        if (fontName) font = fonts.get(fontName) ?? new Map();
        else if (shown !== undefined) texts.push(decode(shown));
        else texts.push([...array.matchAll(/<([0-9A-Fa-f]*)>/g)].map(([, h]) => decode(h)).join(''));
      }
      const box = page.dict
        .match(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/)
        .slice(1)
        .map(Number);
      return { box, content, texts };
    });
  const info = [...all.values()].find((o) => /\/Producer/.test(o.dict))?.dict ?? '';
  const images = [...all.values()].filter((o) => /\/Subtype \/Image\b/.test(o.dict)).length;
  return { version: bytes.subarray(0, 8).toString('latin1'), info, pages, images };
}
