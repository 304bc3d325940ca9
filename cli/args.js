// The command line: node:util's parseArgs (strict: an unknown flag or a missing value is a usage
// error), then each value checked against its choices. USAGE documents every flag.
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

export const USAGE = `attention-lab: attention tensors from files, as figures without a browser.

Layers, heads and positions are counted from 0 everywhere, as PyTorch indexes the tensor:
--index 1,2 is attention[1, 2], drawn as layer 1, head 2 (L1, H2 in the heads view), and its
first query is query 0.

Usage:
  attention-lab info FILE
  attention-lab figure FILE [--tensor NAME] [--index 0,3] [--tokens "a b c"]
                            [--view heatmap|heads|pipeline] [--format svg|html|png|pdf]
                            [--title TEXT] [--quiet] -o OUT
  attention-lab --help

Commands:
  info     List the tensors of FILE (.npy, .npz, .safetensors or JSON): name, dtype, shape,
           and the file's tokens (with their positions) and metadata.
  figure   Draw one tensor of FILE into OUT.

Options of figure:
  --tensor NAME    The tensor to draw (default: the file's only tensor).
  --index I,J,...  Fix the leading axes: for a (L, H, T, T) tensor, "--index 0,3" is layer 0,
                   head 3. heatmap needs 2 axes left, heads 3 (H, T, T) or 4 (L, H, T, T).
                   Default: 0 for every axis in front of those.
  --tokens "a b"   Labels of the queries and keys, separated by spaces (default: the file's
                   tokens when their count fits, else the positions 0, 1, 2...).
  --view V         heatmap (default): one (Tq, Tk) map with labelled axes and a colour bar.
                   heads: a grid of small maps as BertViz draws it, a row per layer (L0, L1...)
                   and a column per head (H0, H1...).
                   pipeline: the whole computation from the file's x, wq, wk, wv (or q, k, v)
                   tensors (PyTorch's q_proj.weight ... names too), recomputed by the wasm core
                   inside the file: editable cells, a click on a score masks it, exact values
                   on hover. HTML only; --tensor and --index do not apply.
  --format F       svg: a static SVG (every cell has data-value, its exact float32 value, and a
                   tooltip: "query the (3) → key cat (1): 0.25"); html: one self-contained page
                   (no network, opens from file://) that shows the same under the pointer;
                   png: the SVG drawn by the system Chromium (/usr/bin/chromium or
                   $ATTENTION_LAB_CHROMIUM), at twice its size, at most 8192 px a side (else
                   write SVG); pdf: one vector page the size of the figure (cells as fills,
                   labels as text), printed by the same Chromium, at most 19200 px (200 in) a
                   side. Default: the extension of OUT, which must be its format's (.svg, .html
                   or .htm, .png, .pdf): one that disagrees with --format, or names no format
                   (out.txt), is refused (exit 2); an OUT with no extension (/dev/stdout) needs
                   --format.
  --title TEXT     The figure's title (default: the tensor's name and index, attention[1, 2]).
  -o, --out OUT    The file to write; never FILE itself (by any path or link: exit 2).
  -q, --quiet      Print nothing but errors. Otherwise figure says on stderr what it wrote
                   (and that Chromium is starting, for PNG and PDF: a second or more); stdout
                   stays empty, so -o /dev/stdout --format svg pipes the figure alone.
  -h, --help       This text.

Colours: weights (every value in [0, 1]) on the fixed sequential scale [0, 1]; any other tensor
on a diverging scale symmetric around 0.

Files: FILE must be a regular file (not a device, FIFO or directory) of at most 1 GiB; both are
checked before a byte is read. A figure holds at most 2^20 cells; labels longer than 40
characters are cut with an ellipsis. Control characters in names, tokens and metadata are shown
as Control Pictures (U+0001 as U+2401, ESC as U+241B; C1 controls as U+FFFD) in the figures and
in what is printed: no escape sequence reaches the terminal.

Exit codes: 0 done, 1 bad input (a file that cannot be read, is not a regular file or is over
1 GiB, no such tensor, an index out of range, a token count that does not fit, PNG or PDF
without Chromium), 2 usage (unknown command or flag, a missing FILE or -o, a value outside a flag's
choices, an OUT whose extension is not its format's, -o naming FILE).
`;

const OPTIONS = {
  tensor: { type: 'string' },
  index: { type: 'string' },
  tokens: { type: 'string' },
  view: { type: 'string' },
  format: { type: 'string' },
  title: { type: 'string' },
  out: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
};
const VIEWS = ['heatmap', 'heads', 'pipeline'];
// Each format and the extensions an OUT of it may have.
const EXTENSIONS = { svg: ['svg'], html: ['html', 'htm'], png: ['png'], pdf: ['pdf'] };
const FORMATS = Object.keys(EXTENSIONS);
const NAMES = '.svg, .html (or .htm), .png or .pdf';

function choice(flag, value, choices) {
  if (!choices.includes(value)) throw new UsageError(`--${flag} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
  return value;
}

function indices(text) {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p) || !Number.isSafeInteger(Number(p)))) {
    throw new UsageError(`--index must be non-negative integers separated by commas (like 0,3), got ${JSON.stringify(text)}`);
  }
  return parts.map(Number);
}

/**
 * The format of OUT: --format when given, else OUT's extension. A file named for one format never
 * holds another (`--format svg -o fig.pdf` would write an SVG that no PDF reader opens), so an
 * extension that disagrees with --format, or names no format at all, is a usage error. An OUT with
 * no extension (/dev/stdout, a pipe) needs --format.
 */
function outputFormat(out, given) {
  const dotted = extname(out); // as written, for the messages
  const ext = dotted.slice(1).toLowerCase();
  const format = given === undefined ? undefined : choice('format', given, FORMATS);
  if (format !== undefined) {
    if (ext && !EXTENSIONS[format].includes(ext))
      throw new UsageError(`-o ${out} is named ${dotted}, but --format is ${format}: name it .${EXTENSIONS[format][0]}, or drop --format`);
    return format;
  }
  if (!ext) throw new UsageError(`-o ${out} has no extension to tell the format: name it ${NAMES}, or give --format`);
  const named = FORMATS.find((f) => EXTENSIONS[f].includes(ext));
  if (!named) throw new UsageError(`-o ${out} is named ${dotted}, not a format the command writes: name it ${NAMES}`);
  return named;
}

/** argv (after node and the script) -> { help } or { command, file, ...options }; a UsageError when it does not parse. */
export function parseCommand(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error.message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [command, file, ...extra] = positionals;
  if (!command) throw new UsageError('a command is needed: info or figure');
  if (command !== 'info' && command !== 'figure') throw new UsageError(`unknown command '${command}' (known: info, figure)`);
  if (!file) throw new UsageError(`${command}: FILE is missing`);
  if (extra.length) throw new UsageError(`${command}: one FILE only, got also ${extra.map((e) => `'${e}'`).join(', ')}`);
  if (command === 'info') {
    const used = Object.keys(values).filter((k) => k !== 'help');
    if (used.length) throw new UsageError(`info takes no options, got --${used[0]}`);
    return { command, file };
  }
  if (!values.out) throw new UsageError('figure: -o OUT is missing');
  const tokens = values.tokens === undefined ? undefined : values.tokens.split(/\s+/).filter(Boolean);
  if (tokens && tokens.length === 0) throw new UsageError('--tokens is empty');
  const view = choice('view', values.view ?? 'heatmap', VIEWS);
  const format = outputFormat(values.out, values.format);
  if (view === 'pipeline' && format !== 'html') {
    throw new UsageError(
      `--view pipeline is an interactive figure: --format html (or -o NAME.html), got ${format} from ${values.format === undefined ? `-o ${values.out}` : '--format'}`,
    );
  }
  if (view === 'pipeline' && (values.tensor !== undefined || values.index !== undefined))
    throw new UsageError("--view pipeline reads the file's x, wq, wk, wv (or q, k, v): --tensor and --index do not apply");
  return {
    command,
    file,
    out: values.out,
    tensor: values.tensor,
    index: values.index === undefined ? undefined : indices(values.index),
    tokens,
    view,
    format,
    title: values.title,
    quiet: values.quiet === true,
  };
}
