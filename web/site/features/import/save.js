// Every stage saved as a tensor file, from each figure's menu (beside SVG, PNG, CSV): .npy (the
// matrix or stack as shown, float32) and .safetensors (named after the stage, with the row labels
// as its tokens), written by attention-lab/io and read back bit for bit. JSON is the masthead's.
import { registerFigureAction } from '../../../figures/export/actions.js';
import { download, fileName } from '../../../figures/export/download.js';

const io = () => import('../../../io/index.js');

// Called by the import panel's mount: package.json's sideEffects lets the bundler drop a module
// that only registers on import.
export function registerSaveActions() {
  registerFigureAction({
    id: 'npy',
    label: '.npy',
    run: async (target) => {
      const { writeNpy } = await io();
      download(new Blob([writeNpy(target.tensor)], { type: 'application/octet-stream' }), fileName(target.name, 'npy'));
    },
  });

  registerFigureAction({
    id: 'safetensors',
    label: '.safetensors',
    run: async (target) => {
      const { writeSafetensors } = await io();
      const labels = target.rowLabels?.every((l) => typeof l === 'string') ? { tokens: target.rowLabels } : undefined;
      const name = target.name.slice(1).filter(Boolean).join('-') || 'tensor'; // the stage (and head): 'weights'
      download(new Blob([writeSafetensors({ [name]: target.tensor }, labels)], { type: 'application/octet-stream' }), fileName(target.name, 'safetensors'));
    },
  });
}
