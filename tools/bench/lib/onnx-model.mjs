// A tiny ONNX ModelProto writer (protobuf wire format by hand), enough for the benchmark's
// graphs: float tensors, int64 initializers, int/float attributes, a few opset imports.
// Field numbers are those of onnx/onnx.proto3; unset fields are simply not written.
//
// Usage:
//   const bytes = onnxModel({
//     opsets: { '': 21, 'com.microsoft': 1 },
//     inputs: [['q', [1, 8, 512, 64]], ...], outputs: [['y', [1, 8, 512, 64]]],
//     initializers: [floatTensor('scale', [], [0.125]), int64Tensor('axes', [1], [-1])],
//     nodes: [node('MatMul', ['q', 'kt'], ['s']), node('Softmax', ['s'], ['p'], { axis: -1 }), ...],
//   });
//   await ort.InferenceSession.create(bytes)

const FLOAT = 1; // TensorProto.DataType
const INT32 = 6;
const INT64 = 7;
const WIRE_VARINT = 0;
const WIRE_FIXED32 = 5;
const WIRE_BYTES = 2;
const textEncoder = new TextEncoder();

/** Grows a byte list; every write appends. */
class Writer {
  constructor() {
    this.bytes = [];
  }
  varint(value) {
    // int64 fields carry negative numbers as 10-byte two's complement varints.
    let n = BigInt.asUintN(64, BigInt(value));
    do {
      let byte = Number(n & 0x7fn);
      n >>= 7n;
      if (n) byte |= 0x80;
      this.bytes.push(byte);
    } while (n);
    return this;
  }
  tag(field, wire) {
    return this.varint((field << 3) | wire);
  }
  int(field, value) {
    return this.tag(field, WIRE_VARINT).varint(value);
  }
  float(field, value) {
    this.tag(field, WIRE_FIXED32);
    this.bytes.push(...new Uint8Array(new Float32Array([value]).buffer));
    return this;
  }
  raw(field, bytes) {
    this.tag(field, WIRE_BYTES).varint(bytes.length);
    for (const b of bytes) this.bytes.push(b);
    return this;
  }
  string(field, text) {
    return this.raw(field, textEncoder.encode(text));
  }
  message(field, writer) {
    return this.raw(field, writer.bytes);
  }
  finish() {
    return Uint8Array.from(this.bytes);
  }
}

/** TensorProto from raw little-endian bytes. */
function tensorProto(name, dims, dataType, rawBytes) {
  const w = new Writer();
  for (const d of dims) w.int(1, d); // dims
  w.int(2, dataType); // data_type
  w.string(8, name); // name
  w.raw(9, rawBytes); // raw_data
  return w;
}

/** A float32 initializer (dims [] is a scalar). */
export function floatTensor(name, dims, values) {
  return tensorProto(name, dims, FLOAT, new Uint8Array(Float32Array.from(values).buffer));
}

/** An int64 initializer (shapes for Reshape, axes for ReduceSum). */
export function int64Tensor(name, dims, values) {
  return tensorProto(name, dims, INT64, new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer));
}

/** An int32 initializer (GroupQueryAttention's seqlens_k and total_sequence_length). */
export function int32Tensor(name, dims, values) {
  return tensorProto(name, dims, INT32, new Uint8Array(Int32Array.from(values).buffer));
}

/** AttributeProto: integers become INT, other numbers FLOAT, integer arrays INTS. */
function attribute(name, value) {
  const w = new Writer().string(1, name);
  if (Array.isArray(value)) {
    for (const v of value) w.int(8, v); // ints
    return w.int(20, 7); // type INTS
  }
  if (typeof value === 'object' && value.float !== undefined) return w.float(2, value.float).int(20, 1);
  if (Number.isInteger(value)) return w.int(3, value).int(20, 2); // i, type INT
  return w.float(2, value).int(20, 1); // f, type FLOAT
}

/**
 * NodeProto. attrs: { name: int | float | int[] | { float: x } } ({ float: 1 } forces FLOAT for an
 * integral value such as scale = 1). '' in inputs skips an optional input.
 */
export function node(opType, inputs, outputs, attrs = {}, domain = '') {
  const w = new Writer();
  for (const i of inputs) w.string(1, i);
  for (const o of outputs) w.string(2, o);
  w.string(3, `${opType}_${outputs[0]}`);
  w.string(4, opType);
  for (const [k, v] of Object.entries(attrs)) w.message(5, attribute(k, v));
  if (domain) w.string(7, domain);
  return w;
}

/** ValueInfoProto of a float tensor with a fixed shape. */
function valueInfo(name, dims) {
  const shape = new Writer();
  for (const d of dims) shape.message(1, new Writer().int(1, d)); // dim { dim_value }
  const tensorType = new Writer().int(1, FLOAT).message(2, shape);
  const type = new Writer().message(1, tensorType);
  return new Writer().string(1, name).message(2, type);
}

/** ModelProto bytes. opsets maps a domain ('' is the default ONNX domain) to its version. */
export function onnxModel({ opsets, inputs, outputs, nodes, initializers = [], irVersion = 10 }) {
  const graph = new Writer();
  for (const n of nodes) graph.message(1, n);
  graph.string(2, 'bench');
  for (const t of initializers) graph.message(5, t);
  for (const [name, dims] of inputs) graph.message(11, valueInfo(name, dims));
  for (const [name, dims] of outputs) graph.message(12, valueInfo(name, dims));
  const model = new Writer().int(1, irVersion).string(2, 'attention-lab bench');
  model.message(7, graph);
  for (const [domain, version] of Object.entries(opsets)) {
    const opset = new Writer();
    if (domain) opset.string(1, domain);
    model.message(8, opset.int(2, version));
  }
  return model.finish();
}
