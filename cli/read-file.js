// The bytes of an input file, read only when it is a regular file of a size the readers take: a
// device (/dev/zero) never ends, a FIFO blocks its reader until a writer comes, and a sparse file
// claims gigabytes it does not hold. So the kind and the size come from stat() before any open;
// the open itself cannot block (O_NONBLOCK: a path swapped for a FIFO meanwhile returns at once),
// and its fstat() must show the same file before exactly `size` bytes are read.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { InputError } from './errors.js';

// The readers' default cap on what one file may decode to (web/io): a bigger file either holds
// more than that or is mostly padding, so it is refused before it costs its size in memory.
export const MAX_FILE_BYTES = 2 ** 30;

const GIB = 2 ** 30;

/** What a stat says the path is, for a message: 'a directory', 'a FIFO'... or null for a regular file. */
function notRegular(stats) {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function cannotRead(file, error) {
  return new InputError(`${file}: cannot be read (${error.code === 'ENOENT' ? 'no such file' : (error.code ?? error.message)})`);
}

function checkKindAndSize(file, stats) {
  const kind = notRegular(stats);
  if (kind) throw new InputError(`${file}: is ${kind}, not a regular file; only regular files are read`);
  if (stats.size > MAX_FILE_BYTES) {
    throw new InputError(
      `${file}: ${stats.size} bytes (${(stats.size / GIB).toFixed(1)} GiB), over the 1 GiB (${MAX_FILE_BYTES}-byte) limit of a file to read`,
    );
  }
}

/** -> the bytes of `file` (a Buffer); an InputError naming it when it is not a regular file of at most 1 GiB. */
export async function readRegularFile(file) {
  let before;
  try {
    before = await stat(file);
  } catch (error) {
    throw cannotRead(file, error);
  }
  checkKindAndSize(file, before);
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    const stats = await handle.stat();
    if (stats.dev !== before.dev || stats.ino !== before.ino) throw new InputError(`${file}: was replaced while being opened; not read`);
    checkKindAndSize(file, stats);
    // Exactly the size stat() gave: a file growing meanwhile is read as it was.
    const bytes = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break; // shrunk meanwhile: what is there
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw cannotRead(file, error);
  } finally {
    await handle.close();
  }
}

/** Whether the paths name one file (the same inode: the same path spelled otherwise, a hard or symbolic link). */
export async function sameFile(a, b) {
  const [x, y] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  return x !== null && y !== null && x.dev === y.dev && x.ino === y.ino;
}
