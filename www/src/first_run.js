// The first-run hint: on the default example at cycle 0, a line under the top bar says what to
// do first. It goes away on the first step or run (or another example), and for good when
// dismissed (×, remembered in localStorage). It reads only what the app already publishes: the
// body's data-cycle / data-run-state and the example select.
const KEY = 'warpstep.firstRunHintDismissed';

function stored() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

function remember() {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Storage unavailable (private mode): the hint just stays dismissed for this page.
  }
}

// Builds the hint (static text and <kbd> elements, no HTML strings) after `anchor`.
function build(doc, anchor, onClose) {
  const el = doc.createElement('div');
  el.id = 'first-run';
  el.className = 'first-run';
  el.setAttribute('role', 'note');
  el.hidden = true;
  const text = doc.createElement('span');
  text.className = 'first-run-text';
  const parts = [['Press '], ['→', 'kbd'], [' to step one cycle, '], ['Space', 'kbd'], [' to run; pick an example above; '], ['?', 'kbd'], [' for help.']];
  for (const [t, tag] of parts) {
    if (tag) {
      const k = doc.createElement(tag);
      k.textContent = t;
      text.append(k);
    } else {
      text.append(doc.createTextNode(t));
    }
  }
  const close = doc.createElement('button');
  close.className = 'first-run-close';
  close.textContent = '×';
  close.title = 'Dismiss this hint';
  close.setAttribute('aria-label', 'Dismiss this hint');
  close.addEventListener('click', onClose);
  el.append(text, close);
  anchor.after(el);
  return el;
}

// `defaultExample`: the id of the example the app opens with.
export function createFirstRunHint(defaultExample, doc = document) {
  const body = doc.body;
  const select = doc.getElementById('example');
  let done = stored();
  const el = build(doc, doc.getElementById('banner'), () => {
    done = true;
    remember();
    update();
  });
  function update() {
    if (!done && body.dataset.ready === 'true') {
      const moved = body.dataset.cycle !== '0' || body.dataset.runState !== 'paused' || select.value !== defaultExample;
      // Once the user steps, runs or picks another example the hint has done its job.
      if (moved) done = true;
    }
    const show = !done && body.dataset.ready === 'true';
    if (el.hidden === show) el.hidden = !show;
    body.dataset.firstRunHint = show ? 'shown' : 'hidden';
  }
  new MutationObserver(update).observe(body, { attributes: true, attributeFilter: ['data-cycle', 'data-run-state', 'data-ready'] });
  select.addEventListener('change', update);
  update();
  return { el, update };
}
