// Saving a file from the page: a Blob through an <a download> click (no server involved).

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
  const base = ['attention-lab', ...parts].filter(Boolean).join('-').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-');
  return `${base}.${extension}`;
}
