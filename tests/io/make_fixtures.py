"""Writes the io readers' test files with NumPy (Debian's python3-numpy) and, for .safetensors,
from the format's specification (tools/model/safetensors_file.py; the safetensors package is not in
Debian), plus one malformed file per bad-file class, and manifest.json: the expected shape, dtype
and float32 bits (base64, little-endian) of every tensor, or the error class and message fragment.

  /usr/bin/python3 tests/io/make_fixtures.py      (rewrites tests/io/fixtures/)
"""
import base64
import io
import json
import os
import struct
import sys
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tools', 'model'))
from safetensors_file import safetensors_bytes  # noqa: E402

OUT = os.path.join(HERE, 'fixtures')
manifest = {'files': {}, 'errors': {}}


def expected(array, dtype=None):
    """What readTensors must return: float32 values (C order) as little-endian bits, exactly."""
    values = np.ascontiguousarray(array).astype('<f4')
    return {'shape': list(array.shape), 'dtype': dtype or array.dtype.name,
            'f32': base64.b64encode(values.tobytes()).decode('ascii')}


def write(name, data):
    with open(os.path.join(OUT, name), 'wb') as f:
        f.write(data)


def npy_bytes(array, version=None):
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, version=version, allow_pickle=False)
    return buffer.getvalue()


def values(dtype):
    """12 values that probe the dtype: extremes, signs, zeros, fractions; NaN, ±Inf and subnormals for floats."""
    dtype = np.dtype(dtype)
    if dtype.kind == 'b':
        return np.array([True, False, True, True, False, False, True, False, False, True, True, False])
    if dtype.kind in 'iu':
        info = np.iinfo(dtype)
        return np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1, 7, 100 % (int(info.max) + 1), 42, 3, 2, 5], dtype=dtype)
    tiny = np.finfo(dtype).smallest_subnormal if hasattr(np.finfo(dtype), 'smallest_subnormal') else np.finfo(dtype).tiny
    return np.array([1.5, -2.25, 0.0, -0.0, np.inf, -np.inf, np.nan, tiny, np.finfo(dtype).max, 1 / 3, -1e-3, 65504], dtype=dtype)


def numpy_files():
    kinds = ['f2', 'f4', 'f8', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'b1']
    for kind in kinds:
        orders = ['|'] if kind[1] == '1' else ['<', '>']
        for order in orders:
            array = values(order + kind).reshape(3, 4)
            name = f'{np.dtype(order + kind).name}_{ {"<": "le", ">": "be", "|": "na"}[order]}.npy'
            write(name, npy_bytes(array))
            manifest['files'][name] = {'tensors': {name[:-4]: expected(array)}}
    # Fortran order: a (2, 3, 4) array stored first axis fastest, returned in C order.
    for dtype in ['<f4', '>f8']:
        array = np.asfortranarray(np.arange(24, dtype=dtype).reshape(2, 3, 4) * 0.5 - 3)
        name = f'fortran_{np.dtype(dtype).name}.npy'
        write(name, npy_bytes(array))
        manifest['files'][name] = {'tensors': {name[:-4]: expected(array)}}
    for version in [(1, 0), (2, 0), (3, 0)]:
        array = np.linspace(-1, 1, 10, dtype='<f4').reshape(2, 5)
        name = f'version{version[0]}.npy'
        write(name, npy_bytes(array, version))
        manifest['files'][name] = {'tensors': {name[:-4]: expected(array)}}
    for name, array in [('scalar.npy', np.array(2.5, dtype='<f8')), ('empty.npy', np.zeros((0, 3), dtype='<f4')),
                        ('vector.npy', np.arange(5, dtype='<i2'))]:
        write(name, npy_bytes(array))
        manifest['files'][name] = {'tensors': {name[:-4]: expected(array)}}
    # numpy.save's own bytes for float32 C order: writeNpy must produce exactly these.
    array = (np.arange(2 * 3 * 5, dtype='<f4').reshape(2, 3, 5) / 7).astype('<f4')
    write('saved_by_numpy.npy', npy_bytes(array))
    manifest['files']['saved_by_numpy.npy'] = {'tensors': {'saved_by_numpy': expected(array)}, 'writeNpyMatches': True}

    members = {'weights': np.linspace(0, 1, 12, dtype='<f4').reshape(3, 4), 'counts': np.arange(6, dtype='>i8').reshape(2, 3),
               'half': values('<f2')[:4], 'tokens': np.array(['the', 'cat', 'sat', 'été'])}
    for name, save in [('stored.npz', np.savez), ('deflated.npz', np.savez_compressed)]:
        buffer = io.BytesIO()
        save(buffer, **members)
        write(name, buffer.getvalue())
        manifest['files'][name] = {'tensors': {k: expected(v) for k, v in members.items() if k != 'tokens'},
                                   'tokens': members['tokens'].tolist()}


def bf16_bits(array):
    """float32 -> bfloat16 bits by rounding to nearest even (as torch does), and the values they hold."""
    bits = array.astype('<f4').view('<u4').astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype('<u2')
    return rounded, (rounded.astype('<u4') << 16).view('<f4')


def safetensors_files():
    tensors, dtypes, expect = {}, {}, {}
    for kind in ['f8', 'f4', 'f2', 'i8', 'i4', 'i2', 'i1', 'u1', 'b1']:
        array = values('<' + kind).reshape(2, 6) if kind != 'b1' else values('|b1').reshape(2, 6)
        name = np.dtype(kind).name
        tensors[name] = array
        expect[name] = expected(array)
    bits, held = bf16_bits(np.array([1.0, -2.5, 3.14159, 1e-20, 6.5e4, -0.0], dtype='<f4'))
    tensors['bfloat16'] = bits.reshape(3, 2)
    dtypes['bfloat16'] = 'BF16'
    expect['bfloat16'] = expected(held.reshape(3, 2), 'bfloat16')
    tokens = ['[CLS]', 'hello', 'wörld', '[SEP]']
    write('every_dtype.safetensors', safetensors_bytes(tensors, {'tokens': json.dumps(tokens), 'note': 'fixtures'}, dtypes))
    manifest['files']['every_dtype.safetensors'] = {'tensors': expect, 'tokens': tokens, 'metadata': {'tokens': json.dumps(tokens), 'note': 'fixtures'}}


def json_files():
    nested = [[0.25, 0.75], [1.0, 0.0], [0.5, 0.5]]
    write('nested.json', json.dumps(nested).encode())
    manifest['files']['nested.json'] = {'tensors': {'nested': expected(np.array(nested), 'float32')}}
    obj = {'q': [[1, 2], [3, 4]], 'k': [5, 6, 7], 'tokens': ['a', 'b'], 'metadata': {'model': 'toy'}}
    write('object.json', json.dumps(obj).encode())
    manifest['files']['object.json'] = {'tensors': {'q': expected(np.array(obj['q']), 'float32'), 'k': expected(np.array(obj['k']), 'float32')},
                                        'tokens': ['a', 'b'], 'metadata': {'model': 'toy'}}
    rng = np.random.default_rng(0)
    layers = [rng.dirichlet(np.ones(3), size=(1, 2, 3)).round(4) for _ in range(2)]  # L = 2 of (1, H = 2, T = 3, T)
    write('bertviz.json', json.dumps({'attention': [w.tolist() for w in layers], 'tokens': ['x', 'y', 'z']}).encode())
    manifest['files']['bertviz.json'] = {'tensors': {'attention': expected(np.concatenate(layers), 'float32')}, 'tokens': ['x', 'y', 'z']}


def npy_with_header(header, data, version=1):
    text = header.encode('latin1')
    text += b' ' * (-(len(text) + 11) % 64) + b'\n'
    length = struct.pack('<H', len(text)) if version == 1 else struct.pack('<I', len(text))
    return b'\x93NUMPY' + bytes([version, 0]) + length + text + data


def bad(name, data, error, fragment):
    write(name, data)
    manifest['errors'][name] = {'error': error, 'message': fragment}


def bad_files():
    good = npy_bytes(np.arange(12, dtype='<f4').reshape(3, 4))
    bad('truncated.npy', good[:-3], 'RangeError', 'truncated')
    bad('header_past_end.npy', good[:8] + struct.pack('<H', 5000) + good[10:60], 'RangeError', 'header runs past the end')
    bad('header_over_limit.npy', b'\x93NUMPY\x02\x00' + struct.pack('<I', 200 * 2**20) + b'{}', 'RangeError', 'over the 100 MB limit')
    floats = np.arange(12, dtype='<f4').tobytes()
    bad('unknown_dtype.npy', npy_with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (3, 2), }", floats[:48]), 'TypeError', "unknown dtype '<c8'")
    object_array = io.BytesIO()
    np.save(object_array, np.array([{'a': 1}, None], dtype=object), allow_pickle=True)
    bad('object.npy', object_array.getvalue(), 'TypeError', 'object array')
    bad('shape_mismatch.npy', npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }", floats), 'RangeError', 'needs 60 bytes of data, the file has 48')
    bad('shape_overflow.npy', npy_with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }", floats), 'RangeError', 'more elements than any file can hold')
    bad('code_in_header.npy', npy_with_header("__import__('os').system('echo hi')", floats), 'TypeError', 'not a NumPy header')
    bad('structured.npy', npy_bytes(np.zeros(2, dtype=[('a', '<f4'), ('b', '<i4')])), 'TypeError', 'structured arrays')

    buffer = io.BytesIO()
    np.savez(buffer, a=np.arange(64, dtype='<f4'))
    stored = buffer.getvalue()
    bad('truncated.npz', stored[: len(stored) // 2], 'RangeError', 'end-of-central-directory')
    corrupt = bytearray(stored)
    corrupt[stored.index(b'\x93NUMPY') + 200] ^= 0xFF  # a data byte of member a.npy
    bad('bad_crc.npz', bytes(corrupt), 'RangeError', 'CRC-32')
    checkpoint = io.BytesIO()
    with zipfile.ZipFile(checkpoint, 'w') as z:  # the layout of torch.save: archive/data.pkl and tensor storages
        z.writestr('archive/data.pkl', b'\x80\x02cos\nsystem\nq\x00X\x02\x00\x00\x00hiq\x01\x85q\x02Rq\x03.')
        z.writestr('archive/data/0', b'\x00' * 16)
    bad('checkpoint.zip', checkpoint.getvalue(), 'TypeError', 'pickle')
    bad('model.pt', b'\x80\x02}q\x00.', 'TypeError', 'pickle')

    def st(header, data):
        text = json.dumps(header).encode()
        return struct.pack('<Q', len(text)) + text + data
    t = lambda dtype, shape, b, e: {'dtype': dtype, 'shape': shape, 'data_offsets': [b, e]}
    good_st = st({'a': t('F32', [2, 2], 0, 16)}, floats[:16])
    bad('truncated.safetensors', good_st[:-4], 'RangeError', 'run past the end of the data')
    bad('header_past_end.safetensors', struct.pack('<Q', 4096) + good_st[8:], 'RangeError', 'header runs past the end')
    bad('header_over_limit.safetensors', struct.pack('<Q', 200 * 2**20) + b'{}', 'RangeError', 'over the 100 MB limit')
    bad('short.safetensors', b'\x04\x00\x00', 'RangeError', 'less than the 8-byte header length')
    bad('unknown_dtype.safetensors', st({'a': t('F8_E4M3', [4], 0, 4)}, floats[:4]), 'TypeError', 'unknown dtype "F8_E4M3"')
    bad('shape_mismatch.safetensors', st({'a': t('F32', [3, 3], 0, 16)}, floats[:16]), 'RangeError', 'needs 36 bytes')
    bad('overlap.safetensors', st({'a': t('F32', [3], 0, 12), 'b': t('F32', [3], 8, 20)}, floats[:20]), 'RangeError', 'overlap')
    bad('out_of_range.safetensors', st({'a': t('F32', [4], 32, 48)}, floats[:16]), 'RangeError', 'run past the end of the data')
    bad('hole.safetensors', st({'a': t('F32', [2], 0, 8), 'b': t('F32', [2], 12, 20)}, floats[:20]), 'RangeError', 'a hole')
    bad('negative_offset.safetensors', st({'a': t('F32', [2], -8, 0)}, floats[:8]), 'RangeError', 'data_offsets must be')
    bad('shape_overflow.safetensors', st({'a': t('F32', [2**40, 2**40], 0, 16)}, floats[:16]), 'RangeError', 'more elements than any file can hold')
    bad('bad_tokens.safetensors', st({'__metadata__': {'tokens': 'a b c'}, 'a': t('F32', [4], 0, 16)}, floats[:16]), 'TypeError', 'JSON list of strings')
    bad('not_json_header.safetensors', struct.pack('<Q', 8) + b'{"a": 1,' + floats[:16], 'TypeError', 'not valid JSON')

    bad('ragged.json', b'[[1, 2], [3]]', 'RangeError', 'ragged')
    bad('strings.json', b'{"q": [[1, "2"]]}', 'TypeError', 'must be a number')
    bad('deep.json', b'[' * 5000 + b']' * 5000, 'TypeError', 'nested more than 16 deep')
    bad('not_json.json', b'{"q": [1, 2', 'TypeError', 'not valid JSON')
    bad('bad_tokens.json', b'{"q": [1, 2], "tokens": ["a", 3]}', 'TypeError', 'tokens[1] must be a string')


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    numpy_files()
    safetensors_files()
    json_files()
    bad_files()
    with open(os.path.join(OUT, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f'{len(os.listdir(OUT))} files, {total} bytes')


if __name__ == '__main__':
    main()
