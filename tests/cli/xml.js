// A small XML reader for the command's SVG output: well-formedness (only XML 1.0 characters, even
// through numeric references: no C0 control but tab, newline and return; every tag closed in
// order, attributes quoted and not repeated, only the five XML entities and numeric ones, nothing
// outside the root) and a tree to query. Enough for what the figures write; not a general XML parser.
const NAME = '[A-Za-z_][\\w.:-]*';
const TOKEN = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>|([^<]+)|(<)`, 'gy');
const ATTR = new RegExp(`(${NAME})\\s*=\\s*"([^"]*)"`, 'g');
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));|&/g;
const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// Not a Char of XML 1.0 (www.w3.org/TR/xml/#charsets): C0 controls but \t \n \r, U+FFFE, U+FFFF, lone surrogates.
const NOT_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Throws when `text` holds a character XML 1.0 forbids, naming its code and where. */
export function checkXmlChars(text, what = 'the document') {
  const m = NOT_CHAR.exec(text);
  if (m)
    throw new Error(
      `${what} holds U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')}, not an XML character, at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 20), m.index + 20))}`,
    );
}

function decode(text) {
  return text.replace(ENTITY, (m, named, dec, hex) => {
    if (m === '&') throw new Error(`a bare & in ${JSON.stringify(text.slice(0, 40))}`);
    if (named) return NAMED[named];
    const char = String.fromCodePoint(dec ? Number(dec) : parseInt(hex, 16));
    checkXmlChars(char, `the reference ${m}`);
    return char;
  });
}

/** -> the root element { tag, attrs, children, text }; throws on anything not well-formed. */
export function parseXml(source) {
  checkXmlChars(source);
  const doc = { tag: '#document', attrs: {}, children: [], text: '' };
  const stack = [doc];
  TOKEN.lastIndex = 0;
  let m;
  while (TOKEN.lastIndex < source.length && (m = TOKEN.exec(source))) {
    const [, close, tag, attrText, selfClose, text, stray] = m;
    const top = stack[stack.length - 1];
    if (stray) throw new Error(`a malformed tag at ${m.index}: ${JSON.stringify(source.slice(m.index, m.index + 40))}`);
    if (text !== undefined) {
      if (stack.length === 1 && text.trim()) throw new Error(`text outside the root at ${m.index}`);
      top.text += decode(text);
      continue;
    }
    if (close) {
      if (top.tag !== tag) throw new Error(`</${tag}> closes <${top.tag}> at ${m.index}`);
      stack.pop();
      continue;
    }
    const attrs = {};
    for (const [, name, value] of attrText.matchAll(ATTR)) {
      if (name in attrs) throw new Error(`<${tag}> repeats ${name}`);
      attrs[name] = decode(value);
    }
    const node = { tag, attrs, children: [], text: '' };
    if (stack.length === 1 && doc.children.length) throw new Error('a second root element');
    top.children.push(node);
    if (!selfClose) stack.push(node);
  }
  if (TOKEN.lastIndex !== source.length && m === null) throw new Error('unreadable markup');
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1].tag}> is never closed`);
  if (doc.children.length !== 1) throw new Error('no root element');
  return doc.children[0];
}

/** Every element under `node` (itself included) for which `test` holds, in document order. */
export function findAll(node, test, out = []) {
  if (test(node)) out.push(node);
  for (const child of node.children) findAll(child, test, out);
  return out;
}
