// figure.*: the words of the figures' elements (toolbar, export menu, loading), in English.
// A figure page loads only this part (figure-text.js), not the explorer's catalogs.
import training from '../training/en.js';

export default {
  ...training,
  'figure.loading': 'Loading the figure…',
  'figure.export': 'Export',
  'figure.export-name': 'Export this figure',
  'figure.export-title': 'Download as SVG, PNG or a self-contained HTML file',
  'figure.html-note': 'one file, works offline',
  'figure.toolbar': 'Figure export',
};
