// attention-lab's command line: run(argv) -> exit code, writing to stdout and stderr.
//   info FILE                 the tensors of a file
//   figure FILE [...] -o OUT  one tensor as a static SVG, a standalone HTML page, a PNG or a PDF; what it
//                             did on stderr (nothing with --quiet), stdout left to the figure
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { USAGE, parseCommand } from './args.js';
import { showControls, terminalText } from './controls.js';
import { InputError, UsageError } from './errors.js';
import { headsSvg, heatmapSvg } from './figure-svg.js';
import { standalonePage } from './html.js';
import { axisTokens, loadFile, pickTensor, selectBlock } from './load.js';
import { sameFile } from './read-file.js';
import { pipelineData, pipelineState, standaloneHtml } from '../web/figures/index.js';

/** The lines `info` prints: one per tensor, then tokens and metadata. */
export function describeFile(file, { tensors, tokens, metadata }) {
  const names = Object.keys(tensors);
  let width = 4; // a loop, not Math.max(...names): a file may hold 10^5 tensors and more
  for (const name of names) width = Math.max(width, name.length);
  const lines = [`${file}: ${names.length} tensor${names.length === 1 ? '' : 's'}`];
  for (const name of names) {
    const t = tensors[name];
    lines.push(`  ${name.padEnd(width)}  ${t.dtype.padEnd(8)}  [${t.shape.join(', ')}]`);
  }
  // Positions count from 0, as the figures' axes, readouts and --index do.
  if (tokens) {
    const where = tokens.length === 1 ? 'position 0' : `positions 0 to ${tokens.length - 1}`;
    lines.push(`tokens (${tokens.length}, ${where}): ${tokens.join(' ')}`);
  }
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (key !== 'tokens') lines.push(`metadata ${key}: ${value.length > 120 ? `${value.slice(0, 117)}...` : value}`);
  }
  return lines;
}

// About 100 bytes of SVG per cell: 2^20 cells is a 100 MB file, already more than a viewer opens
// comfortably, and far below V8's string limit (a 12 x 12 grid of heads at T = 128 is 2.4 million).
export const MAX_CELLS = 2 ** 20;

/** -> { svg: { chunks, width, height }, title, tokens: { rows, cols } (each null without tokens) } of the figure the options ask for. */
export function figureSvg(file, loaded, options, { titles }) {
  const { name, tensor } = pickTensor(file, loaded.tensors, options.tensor);
  const where = `${file}: tensor '${name}'`;
  const keep = options.view === 'heatmap' ? [2] : [3, 4];
  const block = selectBlock(where, tensor, options.index, keep);
  const [Tq, Tk] = block.shape.slice(-2);
  if (block.data.length > MAX_CELLS) {
    throw new InputError(
      `${where}: the ${options.view} of shape [${block.shape.join(', ')}] has ${block.data.length} cells, more than an SVG figure holds (${MAX_CELLS}); choose fewer with --index`,
    );
  }
  const tokens = axisTokens(where, Tq, Tk, options, loaded.tokens);
  const { rows, cols } = tokens;
  const title = options.title ?? `${name}${block.index.length ? `[${block.index.join(', ')}]` : ''}`;
  if (options.view === 'heatmap') return { title, tokens, svg: heatmapSvg({ data: block.data, Tq, Tk, rows, cols, title, titles }) };
  const [L, H] = block.shape.length === 4 ? block.shape : [1, block.shape[0]];
  return { title, tokens, svg: headsSvg({ data: block.data, L, H, T: Tq, Tk, rows, cols, title, titles }) };
}

/** The standalone computing figure of FILE's x, wq, wk, wv (or q, k, v), as an HTML file's text. */
export async function pipelineHtml(file, loaded, options) {
  let patch;
  try {
    patch = await pipelineData(loaded);
  } catch (error) {
    throw new InputError(`${file}: ${error.message}`);
  }
  if (patch === null) {
    throw new InputError(
      `${file}: --view pipeline needs tensors x, wq, wk, wv (or q, k, v); it holds ${Object.keys(loaded.tensors)
        .map((n) => `'${n}'`)
        .join(', ')} (attention weights go to --view heatmap or heads)`,
    );
  }
  if (options.rowLabels) {
    const rows = patch.x ? patch.x.length : patch.q[0].length;
    if (options.rowLabels.length !== rows) throw new InputError(`--row-labels: ${options.rowLabels.length} labels for ${rows} rows of ${file}`);
    patch.tokens = options.rowLabels;
  }
  if (patch.tokens) patch.tokens = patch.tokens.map(showControls);
  const title = showControls(options.title ?? `attention of ${file}`);
  try {
    await pipelineState({ data: patch }); // the state's own checks (sizes the explorer computes live), before writing
    return await standaloneHtml({ element: 'attn-figure', attributes: { editable: true }, data: patch, title });
  } catch (error) {
    // A clone of the repository holds no wasm build (web/wasm/ is built, not committed).
    if (error.code === 'ENOENT' && /[\\/]web[\\/]wasm[\\/]/.test(error.path ?? '')) {
      throw new InputError(
        `--view pipeline packs the wasm core into the page, and ${wasmFolder(error.path)}attention-simd.js and .wasm are not built: run npm run build:wasm in ${fileURLToPath(new URL('..', import.meta.url))}, or use the package from npm pack`,
      );
    }
    throw new InputError(`${file}: ${error.message}`);
  }
}

/** The folder of a missing wasm file, with its separator: which of the two files is read first varies. */
function wasmFolder(path) {
  return path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** Draws the figure the options ask for into OUT; `say(line)` reports what it does (on stderr). */
async function figure(options, say) {
  if (await sameFile(options.out, options.file))
    throw new UsageError(`-o ${options.out} is the input file ${options.file}: nothing written; choose another OUT`);
  const loaded = await loadFile(options.file);
  if (options.view === 'pipeline') return write(options, [await pipelineHtml(options.file, loaded, options)]);
  // Per-cell tooltips serve the SVG file alone: the HTML page shows the value under the pointer
  // (tooltips would double its size), and a PNG or a PDF has no pointer.
  const { svg, title, tokens } = figureSvg(options.file, loaded, options, { titles: options.format === 'svg' });
  if (options.format === 'svg') return write(options, svg.chunks);
  if (options.format === 'html') return write(options, standalonePage(svg.chunks, { title, tokens, caption: `${title} from ${options.file}` }));
  if (options.format === 'png') return write(options, await (await import('./png.js')).renderPng(svg, { title, say }));
  return write(options, await (await import('./pdf.js')).renderPdf(svg, { title, say }));
}

const BATCH_CHARS = 1 << 20;

/** The chunks joined into strings of about BATCH_CHARS (one write each, not one per cell); counts their bytes in `sizes.bytes`. */
function* batches(chunks, sizes) {
  let batch = [];
  let length = 0;
  for (const chunk of chunks) {
    batch.push(chunk);
    length += chunk.length;
    if (length >= BATCH_CHARS) {
      const text = batch.join('');
      sizes.bytes += Buffer.byteLength(text);
      yield text;
      batch = [];
      length = 0;
    }
  }
  const text = batch.join('');
  sizes.bytes += Buffer.byteLength(text);
  yield text;
}

/** Writes `content` to OUT: the bytes of a PNG or a PDF, or a text's chunks in order. */
async function write(options, content) {
  const sizes = { bytes: 0 };
  const binary = content instanceof Uint8Array;
  try {
    await writeFile(options.out, binary ? content : batches(content, sizes));
  } catch (error) {
    throw new InputError(`-o ${options.out}: cannot be written (${error.code ?? error.message})`);
  }
  if (binary) sizes.bytes = content.byteLength;
  return `wrote ${options.out} (${options.view}, ${options.format}, ${sizes.bytes} bytes)`;
}

/**
 * Runs the command line `argv` (without node and the script); -> the exit code. What it prints
 * names tensors, tokens and files: their control characters are shown, never sent to the terminal.
 */
export async function run(argv, streams = {}) {
  const stdout = { write: (text) => (streams.stdout ?? process.stdout).write(terminalText(text)) };
  const stderr = { write: (text) => (streams.stderr ?? process.stderr).write(terminalText(text)) };
  try {
    const options = parseCommand(argv);
    if (options.help) {
      stdout.write(USAGE);
      return 0;
    }
    if (options.command === 'info') {
      stdout.write(`${describeFile(options.file, await loadFile(options.file)).join('\n')}\n`);
      return 0;
    }
    // Progress goes to stderr, so a script reading stdout (-o /dev/stdout) gets the figure alone.
    const say = options.quiet ? () => {} : (line) => stderr.write(`${line}\n`);
    say(await figure(options, say));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      stderr.write(`attention-lab: ${error.message}\nRun 'attention-lab --help' for the flags.\n`);
      return 2;
    }
    if (error instanceof InputError) {
      stderr.write(`attention-lab: ${error.message}\n`);
      return 1;
    }
    throw error; // a bug of the command itself: its stack, and Node's exit code 1
  }
}
