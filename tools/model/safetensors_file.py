"""A .safetensors writer from the format's specification (the `safetensors` package is not in Debian).

Layout: an 8-byte little-endian header length N, N bytes of JSON (padded with spaces to a multiple
of 8), then the tensors' bytes, little-endian, at the header's data_offsets (relative to the data
start, contiguous, in the order written here).
"""
import json
import struct

import numpy as np

# NumPy dtype -> safetensors dtype name (bfloat16 has no NumPy dtype: pass raw uint16 bits with 'BF16').
DTYPES = {
    'float64': 'F64', 'float32': 'F32', 'float16': 'F16',
    'int64': 'I64', 'int32': 'I32', 'int16': 'I16', 'int8': 'I8',
    'uint64': 'U64', 'uint32': 'U32', 'uint16': 'U16', 'uint8': 'U8', 'bool': 'BOOL',
}


def safetensors_bytes(tensors, metadata=None, dtypes=None):
    """tensors: name -> ndarray; dtypes: name -> safetensors dtype overriding the array's own."""
    header = {}
    if metadata is not None:
        header['__metadata__'] = metadata
    chunks, offset = [], 0
    for name, array in tensors.items():
        array = np.ascontiguousarray(array)
        raw = array.astype(array.dtype.newbyteorder('<'), copy=False).tobytes()
        dtype = (dtypes or {}).get(name) or DTYPES[array.dtype.name]
        header[name] = {'dtype': dtype, 'shape': list(array.shape), 'data_offsets': [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(',', ':')).encode('utf-8')
    text += b' ' * (-len(text) % 8)
    return struct.pack('<Q', len(text)) + text + b''.join(chunks)


def read_safetensors(data):
    """The tensors (name -> ndarray, in the file's dtypes) and the metadata (or None) of a file's bytes."""
    (length,) = struct.unpack('<Q', data[:8])
    header = json.loads(data[8:8 + length].decode('utf-8'))
    metadata = header.pop('__metadata__', None)
    start = 8 + length
    names = {v: k for k, v in DTYPES.items()}
    tensors = {}
    for name, entry in header.items():
        begin, end = entry['data_offsets']
        dtype = np.dtype(names[entry['dtype']]).newbyteorder('<')
        tensors[name] = np.frombuffer(data[start + begin:start + end], dtype=dtype).reshape(entry['shape'])
    return tensors, metadata
