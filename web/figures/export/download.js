// Saving a file from the page: a Blob through an <a download> click (no server involved).
import { svgToPng } from './raster.js';

/** Starts the download of `blob` as `filename`. */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from parts: 'attention-lab-seed-004-weights.svg'. */
export function fileName(parts, extension) {
  const base = ['attention-lab', ...parts]
    .filter(Boolean)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-');
  return `${base}.${extension}`;
}

/** Downloads an SVG file { text, width, height } (standalone-svg.js) as kind 'svg', or as a 'png'. */
export async function saveSvg(file, kind, parts) {
  if (kind === 'svg') download(new Blob([file.text], { type: 'image/svg+xml' }), fileName(parts, 'svg'));
  else if (kind === 'png') download(await svgToPng(file.text, file.width, file.height), fileName(parts, 'png'));
  else throw new TypeError(`export: kind must be 'svg' or 'png', got ${JSON.stringify(kind)}`);
}
