// Control characters of names read from a file (tensors, tokens, metadata, the file's own name),
// made visible instead of acted on: in a terminal ESC [ 31 m recolours the screen and ESC ] 0 ; ...
// BEL retitles the window; in an SVG a C0 control is not an XML character and the file does not
// parse. C0 controls and DEL become their Control Pictures (U+0001 -> U+2401 "␁", ESC -> "␛"), so
// names that differ by one still differ; C1 controls (U+0080-U+009F, U+009B is a one-byte CSI)
// and the XML non-characters U+FFFE, U+FFFF become U+FFFD.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/g;

function picture(c) {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? '\u2421' : '\ufffd';
}

/** `text` with every control character shown as a picture (newlines and tabs included). */
export const showControls = (text) => String(text).replace(CONTROL, picture);

/** Lines of text for a terminal: each line's control characters shown, the line breaks kept. */
export const terminalText = (text) => text.split('\n').map(showControls).join('\n');
