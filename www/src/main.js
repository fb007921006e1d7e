// Entry point: load the wasm model, read its tables once, then start the app (the shared state
// in the URL, or the default example). A wasm that cannot be fetched or instantiated, or an app
// that throws while starting, is reported in the status line (window.warpstepLoadError, defined
// by index.html's inline script, which also reports scripts and stylesheets that fail to load).
import init, { version, tables } from '../../pkg/warpstep.js';
import { App } from './app.js';
import { bindControls } from './controls.js';
import { attachTooltips } from './tooltip.js';
import { trackLayout } from './layout.js';
import { createFirstRunHint } from './first_run.js';
import { DEFAULT_EXAMPLE } from './examples.js';
import { installClassroom } from './classroom.js';
import { installHandout } from './handout.js';

async function start() {
  try {
    await init();
  } catch (err) {
    window.warpstepLoadError(`The simulator failed to load: its WebAssembly module could not be fetched or instantiated (${err}).`);
    throw err;
  }
  try {
    document.getElementById('version').textContent = `v${version()}`;
    document.getElementById('status').textContent = '';
    const app = new App(JSON.parse(tables()));
    window.warpstep = { app };
    bindControls(app);
    installClassroom(app);
    installHandout(app);
    attachTooltips(document.getElementById('views'), document.getElementById('tooltip'));
    trackLayout();
    app.start();
    createFirstRunHint(DEFAULT_EXAMPLE);
  } catch (err) {
    window.warpstepLoadError(`The app failed to start: ${err}.`, false);
    throw err;
  }
}

start();
