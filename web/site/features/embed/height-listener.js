// The host side of embed.html's height messages ({ type: 'attention-lab:height', height }): the
// listener a host page runs to size its iframes, as source text for the snippets and the guide,
// and the same check as a function for the guide page itself. Any page may post to the host, so a
// height is used only when it is a finite number >= 0 (NaN, Infinity or '1e9px; color: red' is
// ignored, never written into a style).

/** The listener, as the iframe snippet and the guide show it. */
export const HEIGHT_LISTENER = `addEventListener('message', (event) => {
    const height = event.data?.type === 'attention-lab:height' ? event.data.height : undefined;
    if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return;
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === event.source) frame.style.height = height + 'px';
    }
  });`;

/** The height a message asks for, or null when it is no height message or no usable height. */
export function frameHeight(data) {
  const height = data?.type === 'attention-lab:height' ? data.height : undefined;
  return typeof height === 'number' && Number.isFinite(height) && height >= 0 ? height : null;
}
