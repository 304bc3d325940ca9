// A consumer of 'attention-lab/elements' (web/elements/index.d.ts): both classes, their members,
// the tag-name map and the 'attn-render' event the declarations add to the DOM's types.
import { AttnFigure, AttnHeatmap } from 'attention-lab/elements';
import { expectType, type Equal } from './assert.js';

export async function useElements(): Promise<number> {
  const figure = document.createElement('attn-figure');
  expectType<Equal<typeof figure, AttnFigure>>(true);
  const map = document.querySelector('attn-heatmap');
  expectType<Equal<typeof map, AttnHeatmap | null>>(true);
  const attributes: string[] = [...AttnFigure.observedAttributes, ...AttnHeatmap.observedAttributes];
  const state: Record<string, unknown> | null = figure.state;
  let renders = 0;
  figure.addEventListener('attn-render', (event) => {
    const detail: { renders?: number; edited?: boolean } = event.detail;
    renders = (detail.renders ?? 0) + Number(detail.edited ?? false);
  });
  const done: Promise<void> = figure.exportAs('svg');
  await done;
  await map?.exportAs('png');
  const element: HTMLElement = new AttnHeatmap();
  return attributes.length + (state ? 1 : 0) + renders + element.childElementCount;
}

export function misuse(figure: AttnFigure): void {
  // @ts-expect-error a figure exports as SVG or PNG
  void figure.exportAs('jpeg');
  // @ts-expect-error the state is read-only
  figure.state = {};
}
