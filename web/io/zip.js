// The members of a zip archive (what numpy.savez and savez_compressed write), read from its
// central directory: stored members are sliced, deflated ones inflated by the platform's
// DecompressionStream('deflate-raw') (browsers, Node >= 20), so a plain page needs no import of a
// zip library. Every size comes from the archive and is checked against the bytes before use; a
// member never inflates past its declared size and must match its CRC-32.
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MEMBER_LIMIT = 2 ** 31; // bytes: beyond one typed array a page can hold

let crcTable;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function u64(view, at) {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;
}

/** The end-of-central-directory record -> { count, offset } of the central directory. */
function centralDirectory(bytes, view, problem) {
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65535); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw problem.range('is not a complete zip archive (no end-of-central-directory record: truncated?)');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const record = u64(view, eocd - 12);
    if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) throw problem.range('zip64 directory record lies outside the file');
    count = u64(view, record + 32);
    offset = u64(view, record + 48);
  }
  if (offset > bytes.length || count * 46 > bytes.length - offset) throw problem.range('zip central directory runs past the end');
  return { count, offset };
}

/** The zip64 extra field fills in sizes and offsets whose 32-bit fields hold 0xffffffff. */
function zip64Sizes(view, extraStart, extraEnd, fields) {
  for (let at = extraStart; at + 4 <= extraEnd; ) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let p = at + 4;
      for (const key of ['uncompressed', 'compressed', 'offset']) {
        if (fields[key] === 0xffffffff && p + 8 <= at + 4 + size) {
          fields[key] = u64(view, p);
          p += 8;
        }
      }
    }
    at += 4 + size;
  }
  return fields;
}

// Chunks are kept until the end, so memory follows the bytes really inflated, never a size the
// archive merely declares (a 2 GB claim over a few bytes allocates nothing).
async function inflate(data, expected, problem, name) {
  const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.length > expected) {
        reader.cancel().catch(() => {});
        throw problem.range(`member ${name} inflates past its declared ${expected} bytes`);
      }
      chunks.push(value);
      length += value.length;
    }
  } catch (error) {
    if (error instanceof RangeError) throw error;
    throw problem.range(`member ${name} is not valid deflate data (${error.message})`);
  }
  if (length !== expected) throw problem.range(`member ${name} inflates to ${length} bytes, its header says ${expected}`);
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** bytes of a zip -> [{ name, bytes }] in archive order (directories skipped). */
export async function readZip(bytes, problem) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const { count, offset } = centralDirectory(bytes, view, problem);
  const members = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw problem.range(`zip central directory entry ${i} lies outside the file or is damaged`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength + extraLength + commentLength > bytes.length) throw problem.range(`zip central directory entry ${i} runs past the end`);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const sizes = zip64Sizes(view, at + 46 + nameLength, at + 46 + nameLength + extraLength, {
      compressed: view.getUint32(at + 20, true),
      uncompressed: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (flags & 1) throw problem.type(`member ${name} is encrypted`);
    if (method !== 0 && method !== 8) throw problem.type(`member ${name} uses zip compression method ${method}; stored (0) and deflated (8) are supported`);
    if (sizes.uncompressed > MEMBER_LIMIT) throw problem.range(`member ${name} declares ${sizes.uncompressed} bytes, over the ${MEMBER_LIMIT}-byte limit`);
    const local = sizes.offset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL) throw problem.range(`member ${name}: local header lies outside the file or is damaged`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + sizes.compressed > bytes.length) throw problem.range(`member ${name} runs past the end (truncated archive)`);
    const packed = bytes.subarray(start, start + sizes.compressed);
    if (method === 0 && sizes.compressed !== sizes.uncompressed) throw problem.range(`member ${name} is stored with two different sizes`);
    const data = method === 0 ? packed : await inflate(packed, sizes.uncompressed, problem, name);
    if (crc32(data) !== crc) throw problem.range(`member ${name} fails its CRC-32 check (damaged archive)`);
    members.push({ name, bytes: data });
  }
  return members;
}
