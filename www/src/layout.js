// Page layout that CSS alone cannot give: the top bar wraps onto more rows when the window is
// narrow or the page zoomed (every control stays on screen), so its height is published as
// --topbar-h for the enlarged view, which sits under it.
export function trackLayout(doc = document) {
  const bar = doc.querySelector('.topbar');
  if (!bar) return;
  const set = () => doc.documentElement.style.setProperty('--topbar-h', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
  set();
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(set).observe(bar);
  else window.addEventListener('resize', set);
}
