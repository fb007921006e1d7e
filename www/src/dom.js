// Small DOM builders for the app's boxes (notice, lesson caption): text only, never HTML.

// A `tag` element with `className` and, optionally, its text.
export function element(tag, className, text) {
  const e = document.createElement(tag);
  e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

// A button showing `label`, titled `title` (also its accessible name when `label` is a symbol),
// calling `onClick`.
export function button(className, label, title, onClick) {
  const b = element('button', className, label);
  b.title = title;
  if (label.length <= 2) b.setAttribute('aria-label', title);
  b.addEventListener('click', onClick);
  return b;
}

// Saves `text` as a JSON file named `name` through the browser's download.
export function downloadJson(name, text) {
  downloadBlob(name, new Blob([text], { type: 'application/json' }));
}

// Saves `blob` as a file named `name` through the browser's download.
export function downloadBlob(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Asks the Why? panel about `lane` of the selected warp (a click on a lane in a view): an event
// the app listens for, so the views need no reference to it.
export function askWhyLane(from, lane) {
  from.dispatchEvent(new CustomEvent('why-lane', { bubbles: true, detail: { lane } }));
}
