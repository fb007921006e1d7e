// Entry point: load the wasm model, then hand control to the app views.
import init, { version } from '../../pkg/warpstep.js';
import { mountConfigPanel } from './config_panel.js';

async function start() {
  const status = document.getElementById('status');
  try {
    await init();
    document.getElementById('version').textContent = `v${version()}`;
    status.textContent = 'Simulator ready.';
    mountConfigPanel(document.getElementById('config-panel'));
    document.body.dataset.ready = 'true';
  } catch (err) {
    status.className = 'error';
    status.textContent = `The simulator failed to load: ${err}`;
    throw err;
  }
}

start();
