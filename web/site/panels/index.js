// The page's own panels, registered in their slots.
import { registerPanel } from '../registry/panels.js';
import { embedCodePanel } from './embed-code.js';
import { explainPanel } from './explain.js';
import { footerPanel } from './footer.js';
import { masksPanel } from './masks.js';
import { mastheadPanels } from './masthead.js';
import { notesPanel } from './notes.js';
import { positionsPanel } from './positions.js';
import { scoringPanel } from './scoring.js';
import { sizesPanel } from './sizes.js';
import { speedPanel } from './speed.js';
import { trainPanel } from './train.js';
import { viewsPanel } from './views.js';
import { importPanels } from '../import/panels.js';

export function registerCorePanels() {
  for (const panel of [...mastheadPanels, ...importPanels, embedCodePanel, sizesPanel, scoringPanel, masksPanel, positionsPanel, notesPanel, viewsPanel, trainPanel, speedPanel, explainPanel, footerPanel]) {
    registerPanel(panel);
  }
}
