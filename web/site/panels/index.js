// The page's own panels, registered in their slots.
import { registerPanel } from './registry.js';
import { embedCodePanel } from '../features/embed/panel.js';
import { saveHtmlPanel } from '../features/save-html/panel.js';
import { explainPanel } from './explain.js';
import { footerPanel } from './footer.js';
import { generatePanel } from '../features/generate/panel.js';
import { masksPanel } from './masks.js';
import { mastheadPanels } from './masthead.js';
import { notesPanel } from '../features/notes/panel.js';
import { positionsPanel } from './positions.js';
import { scoringPanel } from './scoring.js';
import { sizesPanel } from './sizes.js';
import { speedPanel } from '../features/speed/panel.js';
import { trainPanel } from '../features/train/panel.js';
import { viewsPanel } from './views.js';
import { importPanels } from '../features/import/panels.js';
import { labPanels } from '../features/lab/panel.js';

export function registerCorePanels() {
  for (const panel of [
    ...mastheadPanels,
    ...importPanels,
    ...labPanels,
    embedCodePanel,
    saveHtmlPanel,
    sizesPanel,
    scoringPanel,
    masksPanel,
    positionsPanel,
    notesPanel,
    viewsPanel,
    generatePanel,
    trainPanel,
    speedPanel,
    explainPanel,
    footerPanel,
  ]) {
    registerPanel(panel);
  }
}
