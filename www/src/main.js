// Entry point: load the wasm model, read its tables once, then start the app (the shared state
// in the URL, or the default example).
import init, { version, tables } from '../../pkg/warpstep.js';
import { App } from './app.js';
import { bindControls } from './controls.js';
import { attachTooltips } from './tooltip.js';

async function start() {
  const status = document.getElementById('status');
  try {
    await init();
  } catch (err) {
    status.className = 'error';
    status.textContent = `The simulator failed to load: ${err}`;
    throw err;
  }
  document.getElementById('version').textContent = `v${version()}`;
  status.textContent = '';
  const app = new App(JSON.parse(tables()));
  window.warpstep = { app };
  bindControls(app);
  attachTooltips(document.getElementById('views'), document.getElementById('tooltip'));
  app.start();
}

start();
