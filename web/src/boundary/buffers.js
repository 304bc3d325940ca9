// The binding's Buffers record (cpp/bindings/packed.hpp's ATTNLAB_BUFFERS, same order), the one JS
// list of buffer names. name=the public argument when named otherwise; flags: r a result overflow.js
// scans, s a (B, H, Tq, Tk) block of returnWeights / trace, p a scoring parameter (params.<name>).
const TABLE = (
  'x y=weights:r dy=gradWeights dx:r q k v dout=gradOutput out=saved.output:r lse=saved.lse weights:rs ' +
  'scores:s softcapped:s masked:s heads dq:r dk:r dv:r w:p wq:rp wk:rp wv:rp wo:r dw:r dwq:r dwk:r dwv:r ' +
  'dwo:r validLens boolMask=attnMask floatMask=attnMask scratch alibiSlopes'
)
  .split(' ')
  .map((entry) => entry.match(/^(\w+)(?:=([\w.]+))?(?::(\w+))?$/)); // [, name, argument, flags]

export const BUFFER_NAMES = Object.freeze(TABLE.map((m) => m[1]));
export const NO_BUFFERS = Object.freeze(Object.fromEntries(BUFFER_NAMES.map((name) => [name, 0])));
/** The names with `flag` ('r', 's' or 'p'). */
export const buffersWith = (flag) => TABLE.filter((m) => m[3]?.includes(flag)).map((m) => m[1]);
const ARGUMENTS = new Map(TABLE.filter((m) => m[2]).map((m) => [m[1], m[2]]));
/** The public argument a block comes from: its own name unless the table names another. */
export const argumentOf = (name) => ARGUMENTS.get(name) ?? name;
