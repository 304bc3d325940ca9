// The masthead is sticky, and its height changes: its preset buttons wrap into one or two rows
// with the window's width and the language's words. What sticks below it (the Explain panel) and
// what scrolls into view under it read that height from --masthead-height, kept in step here.
export function trackMastheadHeight(masthead, root = document.documentElement) {
  const set = () => root.style.setProperty('--masthead-height', `${Math.ceil(masthead.getBoundingClientRect().height)}px`);
  new ResizeObserver(set).observe(masthead);
  set();
}
