// The members of a zip archive (what numpy.savez and savez_compressed write), read from its
// central directory: stored members are sliced, deflated ones inflated by the platform's
// DecompressionStream('deflate-raw') (browsers, Node >= 20), so a plain page needs no import of a
// zip library. Every size comes from the central directory and is checked before anything is
// inflated (members that share bytes, sizes deflate cannot reach, a total over the caller's limit);
// a member never inflates past its declared size and must match its CRC-32.
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
  for (let at = extraStart; at + 4 <= extraEnd;) {
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

// How far deflate can multiply: at best one 258-byte match per 2 bits (a 1-bit length code and
// a 1-bit distance code), 1032 bytes out per byte in. A member declaring more than its compressed
// bytes can give is lying, refused before anything is allocated.
const DEFLATE_MAX_RATIO = 1032;
// The compressed bytes handed to the inflater at a time: one slice inflates to at most 16.5 MiB,
// so a member that runs past its declared size is stopped within one slice of it.
const SLICE = 16 * 1024;

/**
 * The deflated `data` -> a Uint8Array of exactly `expected` bytes, allocated once; inflation is
 * fed slice by slice and stops as soon as it would pass `expected`, so memory never exceeds the
 * declared size (plus one slice's output) whatever the data really inflates to.
 */
async function inflate(data, expected, problem, name) {
  let fed = 0;
  const source = new ReadableStream(
    {
      pull(controller) {
        if (fed >= data.length) return controller.close();
        controller.enqueue(data.slice(fed, fed + SLICE));
        fed += SLICE;
      },
    },
    { highWaterMark: 0 },
  );
  const reader = source.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const out = new Uint8Array(expected);
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.length > expected) throw problem.range(`member ${name} inflates past its declared ${expected} bytes`);
      out.set(value, length);
      length += value.length;
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof RangeError) throw error;
    throw problem.range(`member ${name} is not valid deflate data (${error.message})`);
  }
  if (length !== expected) throw problem.range(`member ${name} inflates to ${length} bytes, its header says ${expected}`);
  return out;
}

/** Central-directory entry `i` at byte `at` -> { entry: { name, method, crc, local, compressed, uncompressed }, next }. */
function centralEntry(bytes, view, at, i, problem) {
  if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL)
    throw problem.range(`zip central directory entry ${i} lies outside the file or is damaged`);
  const nameLength = view.getUint16(at + 28, true);
  const extraLength = view.getUint16(at + 30, true);
  const commentLength = view.getUint16(at + 32, true);
  const next = at + 46 + nameLength + extraLength + commentLength;
  if (next > bytes.length) throw problem.range(`zip central directory entry ${i} runs past the end`);
  const sizes = zip64Sizes(view, at + 46 + nameLength, at + 46 + nameLength + extraLength, {
    compressed: view.getUint32(at + 20, true),
    uncompressed: view.getUint32(at + 24, true),
    offset: view.getUint32(at + 42, true),
  });
  const entry = {
    name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    flags: view.getUint16(at + 8, true),
    method: view.getUint16(at + 10, true),
    crc: view.getUint32(at + 16, true),
    local: sizes.offset,
    compressed: sizes.compressed,
    uncompressed: sizes.uncompressed,
  };
  return { entry, next };
}

/** Checks one member's kind and sizes and finds its data: -> the member with { start, end } of its packed bytes. */
function locate(entry, bytes, view, centralStart, problem) {
  const { name, flags, method, local, compressed, uncompressed } = entry;
  if (flags & 1) throw problem.type(`member ${name} is encrypted`);
  if (method !== 0 && method !== 8) throw problem.type(`member ${name} uses zip compression method ${method}; stored (0) and deflated (8) are supported`);
  if (uncompressed > MEMBER_LIMIT) throw problem.range(`member ${name} declares ${uncompressed} bytes, over the ${MEMBER_LIMIT}-byte limit of one array`);
  if (method === 0 && compressed !== uncompressed) throw problem.range(`member ${name} is stored with two different sizes`);
  if (method === 8 && uncompressed > compressed * DEFLATE_MAX_RATIO) {
    throw problem.range(
      `member ${name} declares ${uncompressed} bytes, more than its ${compressed} deflated bytes can hold (at most ${DEFLATE_MAX_RATIO} times as many)`,
    );
  }
  if (local + 30 > centralStart || view.getUint32(local, true) !== LOCAL)
    throw problem.range(`member ${name}: local header lies outside the members' area or is damaged`);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + compressed > centralStart) throw problem.range(`member ${name} runs past the end of the members' area (truncated archive?)`);
  return { ...entry, start, end: start + compressed };
}

/**
 * bytes of a zip -> [{ name, read() }] in archive order (directories skipped), where read()
 * resolves to the member's bytes. Everything the central directory says is checked before any
 * member is inflated: each member's method and sizes, that no two members share or overlap bytes
 * (local header and data), and that the members together inflate to at most `limit` bytes.
 */
export function readZip(bytes, problem, limit) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const { count, offset } = centralDirectory(bytes, view, problem);
  const members = [];
  for (let i = 0, at = offset; i < count; i++) {
    const { entry, next } = centralEntry(bytes, view, at, i, problem);
    at = next;
    if (entry.name.endsWith('/')) continue;
    members.push(locate(entry, bytes, view, offset, problem));
  }
  // Each member owns [local header, end of data): sorted by offset, each must end before the next begins.
  const byOffset = [...members].sort((a, b) => a.local - b.local);
  for (let k = 1; k < byOffset.length; k++) {
    const [a, b] = [byOffset[k - 1], byOffset[k]];
    if (b.local < a.end)
      throw problem.range(
        `members ${a.name} and ${b.name} share bytes ${b.local}..${Math.min(a.end, b.end)} of the archive (overlapping entries, as zip bombs have)`,
      );
  }
  const total = members.reduce((sum, m) => sum + m.uncompressed, 0);
  if (total > limit) throw problem.range(`members declare ${total} bytes in all, over the limit of ${limit} bytes (options.maxBytes)`);
  return members.map((m) => ({
    name: m.name,
    async read() {
      const packed = bytes.subarray(m.start, m.end);
      const data = m.method === 0 ? packed : await inflate(packed, m.uncompressed, problem, m.name);
      if (crc32(data) !== m.crc) throw problem.range(`member ${m.name} fails its CRC-32 check (damaged archive)`);
      return data;
    },
  }));
}
