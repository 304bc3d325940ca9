// Hostile files built in memory, in Node and in Chromium alike (no zlib, no fixtures on disk): zip
// archives whose members inflate from a few hundred kilobytes to gigabytes of zeros, archives whose
// central-directory entries share or overlap one member, and .safetensors files whose tensors all
// point at one region. The sizes the tests use are small in bytes and huge in what they unpack to.

/** Bits written least-significant first, as deflate reads them (RFC 1951 3.1.1). */
class BitWriter {
  constructor(bytes) {
    this.bytes = bytes;
    this.bit = 0;
  }
  /** `count` bits of `value`, low bit first (header fields, extra bits). */
  bits(value, count) {
    for (let i = 0; i < count; i++, this.bit++) {
      if ((value >>> i) & 1) this.bytes[this.bit >>> 3] |= 1 << (this.bit & 7);
    }
  }
  /** A Huffman code of `length` bits, its most significant bit first. */
  code(value, length) {
    for (let i = length - 1; i >= 0; i--, this.bit++) {
      if ((value >>> i) & 1) this.bytes[this.bit >>> 3] |= 1 << (this.bit & 7);
    }
  }
}

const HEADER_BITS = 107; // the block header and code lengths below (105 bits) and the first literal (2)

/**
 * A raw deflate stream of `n` zero bytes at deflate's best ratio, 1032:1: one dynamic block whose
 * length code 285 (a 258-byte match) and distance code 0 (distance 1) are one bit each, both the
 * bit 0, so the body is zero bytes: one literal 0, then a 2-bit match per 258 bytes.
 *   literal/length codes: 285 -> '0', 0 -> '10', 256 (end of block) -> '11'; distances 0, 1 -> '0', '1'
 *   code-length codes:    18 (a run of zeros) -> '0', 1 -> '10', 2 -> '11'
 */
export function deflatedZeros(n) {
  if (n < 1) throw new RangeError('deflatedZeros: n must be at least 1');
  const matches = Math.floor((n - 1) / 258);
  const tail = n - 1 - matches * 258; // more literal zeros after the last match
  const bytes = new Uint8Array(Math.ceil((HEADER_BITS + 2 * matches + 2 * tail + 2) / 8));
  const w = new BitWriter(bytes);
  w.bits(1, 1); // BFINAL
  w.bits(2, 2); // BTYPE: dynamic Huffman codes
  w.bits(286 - 257, 5); // HLIT: literal/length codes 0..285
  w.bits(2 - 1, 5); // HDIST: distance codes 0..1
  w.bits(18 - 4, 4); // HCLEN: code-length code lengths up to order position 17 (symbol 1)
  const ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1];
  const clLength = { 18: 1, 1: 2, 2: 2 };
  for (const symbol of ORDER) w.bits(clLength[symbol] || 0, 3);
  const cl = { 18: [0, 1], 1: [2, 2], 2: [3, 2] };
  const zeros = (run) => {
    for (; run > 0; run -= Math.min(run, 138)) {
      w.code(...cl[18]);
      w.bits(Math.min(run, 138) - 11, 7);
    }
  };
  // 288 code lengths: literal 0 -> 2, 1..255 -> 0, 256 -> 2, 257..284 -> 0, 285 -> 1; distances 1, 1.
  w.code(...cl[2]);
  zeros(255);
  w.code(...cl[2]);
  zeros(28);
  for (let i = 0; i < 3; i++) w.code(...cl[1]);
  w.code(2, 2); // literal 0
  w.bit += 2 * matches; // each match: length 285 '0', distance 0 '0' (the array is zero already)
  for (let i = 0; i < tail; i++) w.code(2, 2);
  w.code(3, 2); // end of block
  if (w.bit > 8 * bytes.length) throw new Error(`deflatedZeros: wrote ${w.bit} bits into ${bytes.length} bytes`);
  return bytes;
}

// CRC-32 over n zero bytes without touching them: one zero byte is a linear map of the register,
// raised to the n-th power by squaring (as zlib's crc32_combine does).
const CRC_POLY = 0xedb88320;
function applyMatrix(matrix, vector) {
  let out = 0;
  for (let i = 0; vector; i++, vector >>>= 1) if (vector & 1) out ^= matrix[i];
  return out >>> 0;
}
function multiply(a, b) {
  return b.map((column) => applyMatrix(a, column));
}
function zeroByteMatrix() {
  const bit = new Array(32); // one zero bit: shift right, xor the polynomial when the low bit falls out
  bit[0] = CRC_POLY;
  for (let i = 1; i < 32; i++) bit[i] = (1 << (i - 1)) >>> 0;
  let m = bit;
  for (let i = 0; i < 3; i++) m = multiply(m, m); // 8 bits
  return m;
}

/** A .npy header for `count` float32 values of shape [count], padded as numpy pads it (to 64 bytes). */
export function npyHeader(count, descr = '<f4') {
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${count},), }`;
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  dict = dict.padEnd(total - 10 - 1, ' ') + '\n';
  const out = new Uint8Array(total);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, dict.length & 0xff, dict.length >> 8]);
  for (let i = 0; i < dict.length; i++) out[10 + i] = dict.charCodeAt(i);
  return out;
}

const text = (s) => new TextEncoder().encode(s);

/**
 * A zip of `members`, each { name, data, size, crc, method } (data: the stored or deflated bytes;
 * size, crc: of what it inflates to), with `entries` central-directory entries, each
 * { name, member, shift?, as? } pointing `shift` bytes past the local header of member index
 * `member` and describing it with the sizes of member object `as` (default: that member); by
 * default one entry per member.
 */
export function zipArchive(members, entries = members.map((m, i) => ({ name: m.name, member: i }))) {
  const locals = [];
  const offsets = [];
  let at = 0;
  for (const m of members) {
    const name = text(m.name);
    const header = new Uint8Array(30 + name.length);
    const v = new DataView(header.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(4, 20, true);
    v.setUint16(8, m.method, true);
    v.setUint32(14, m.crc, true);
    v.setUint32(18, m.data.length, true);
    v.setUint32(22, Math.min(m.size, 0xffffffff), true);
    v.setUint16(26, name.length, true);
    header.set(name, 30);
    offsets.push(at);
    locals.push(header, m.data);
    at += header.length + m.data.length;
  }
  const central = [];
  const centralStart = at;
  for (const e of entries) {
    const m = e.as || members[e.member];
    const name = text(e.name);
    const record = new Uint8Array(46 + name.length);
    const v = new DataView(record.buffer);
    v.setUint32(0, 0x02014b50, true);
    v.setUint16(4, 20, true);
    v.setUint16(6, 20, true);
    v.setUint16(10, m.method, true);
    v.setUint32(16, m.crc, true);
    v.setUint32(20, m.data.length, true);
    v.setUint32(24, Math.min(m.size, 0xffffffff), true);
    v.setUint16(28, name.length, true);
    v.setUint32(42, offsets[e.member] + (e.shift || 0), true);
    record.set(name, 46);
    central.push(record);
    at += record.length;
  }
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, entries.length, true);
  v.setUint16(10, entries.length, true);
  v.setUint32(12, at - centralStart, true);
  v.setUint32(16, centralStart, true);
  const out = new Uint8Array(at + 22);
  let p = 0;
  for (const part of [...locals, ...central, end]) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}

/** A deflated .npy member of about `bytes` bytes (a float32 header, then zeros), honestly declared. */
export function zerosMember(name, bytes) {
  const count = Math.floor((bytes - npyHeader(bytes / 4).length) / 4);
  const header = npyHeader(count);
  const size = header.length + 4 * count;
  // The header's bytes are not zeros: a stored block (not final: first byte 0, then LEN, NLEN)
  // holds it, before the zeros' final dynamic block.
  const stored = new Uint8Array(5 + header.length);
  stored.set([0, header.length & 0xff, header.length >> 8, ~header.length & 0xff, ~(header.length >> 8) & 0xff]);
  stored.set(header, 5);
  const zeros = deflatedZeros(4 * count);
  const data = new Uint8Array(stored.length + zeros.length);
  data.set(stored);
  data.set(zeros, stored.length);
  return { name, data, size, crc: crc32Concat(header, 4 * count), method: 8 };
}

/** CRC-32 of `head` followed by `zeros` zero bytes. */
export function crc32Concat(head, zeros) {
  let c = -1;
  for (const b of head) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? CRC_POLY ^ (c >>> 1) : c >>> 1;
  }
  // The zeros: the zero-byte map raised to the n-th power by squaring, applied to the register.
  let result = null;
  let power = zeroByteMatrix();
  for (let k = zeros; k > 0; k = Math.floor(k / 2)) {
    if (k % 2) result = result ? multiply(power, result) : power;
    power = multiply(power, power);
  }
  const register = result ? applyMatrix(result, c >>> 0) : c >>> 0;
  return (register ^ 0xffffffff) >>> 0;
}

/** The first bomb: `entries` central entries over one member of `bytes` deflated zeros. */
export function sharedMemberNpz(bytes = 512 * 2 ** 20, entries = 8) {
  const member = zerosMember('a.npy', bytes);
  return zipArchive(
    [member],
    Array.from({ length: entries }, (_, i) => ({ name: `t${i}.npy`, member: 0 })),
  );
}

/** The second bomb: one honest member inflating to `bytes` (2 GiB by default). */
export function hugeMemberNpz(bytes = 2 ** 31) {
  return zipArchive([zerosMember('a.npy', bytes)]);
}

/**
 * A .safetensors whose `count` F32 tensors all lie on one region of `regionBytes` (the issue's
 * third bomb: 40 or 400 over 64 MiB). The data region is zeros, allocated once.
 */
export function sharedRegionSafetensors(count, regionBytes = 64 * 2 ** 20) {
  const header = {};
  for (let i = 0; i < count; i++) header[`t${i}`] = { dtype: 'F32', shape: [regionBytes / 4], data_offsets: [0, regionBytes] };
  return safetensorsFile(header, regionBytes);
}

/** A .safetensors of `header` (an object, written as JSON) and `dataBytes` zero bytes of data. */
export function safetensorsFile(header, dataBytes) {
  let json = JSON.stringify(header);
  json = json.padEnd(Math.ceil(json.length / 8) * 8, ' ');
  const out = new Uint8Array(8 + json.length + dataBytes);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(text(json), 8);
  return out;
}

/** A member of `real` bytes of zeros whose headers declare only `declared`: it must stop there. */
export function lyingMemberNpz(real = 512 * 2 ** 20, declared = 2 ** 20) {
  return zipArchive([{ ...zerosMember('a.npy', real), size: declared }]);
}

/**
 * Fifield's overlapping layout: a stored member `outer.npy` whose data is the whole local record
 * of a deflated member `inner.npy` (of `bytes` zeros), and a central entry for each, so the inner
 * member's bytes are read twice. Every header is valid; only the overlap is wrong.
 */
export function nestedMemberNpz(bytes = 4096) {
  const inner = zerosMember('inner.npy', bytes);
  const record = zipArchive([inner]).subarray(0, 30 + 'inner.npy'.length + inner.data.length);
  const outer = { name: 'outer.npy', data: record, size: record.length, crc: crc32Concat(record, 0), method: 0 };
  return zipArchive(
    [outer],
    [
      { name: 'outer.npy', member: 0 },
      { name: 'inner.npy', member: 0, shift: 30 + 'outer.npy'.length, as: inner },
    ],
  );
}
