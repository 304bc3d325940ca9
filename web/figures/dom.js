// The element builders: h(tag, props, ...children) for HTML, svg(tag, attrs, children) for SVG.
// null, undefined, false: left out. h() sets non-strings as properties; SVG's are read-only.
function build(node, props, children, html) {
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (html && key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true && html ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

export const h = (tag, props = {}, ...children) => build(document.createElement(tag), props, children, true);

export const svg = (tag, attrs = {}, children = []) => build(document.createElementNS('http://www.w3.org/2000/svg', tag), attrs, children, false);
