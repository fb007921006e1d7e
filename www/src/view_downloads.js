// The files the views save, as methods of the App (app.js mixes them in): the run as a
// Chrome/Perfetto trace, the counters over time as CSV, and a view as a PNG. Each is the model's
// output (or the canvas as drawn), saved as it is.
import { downloadJson, downloadBlob } from './dom.js';

export const viewDownloads = {
  // Downloads the run so far (cycle 0 to now) as a Chrome/Perfetto trace the model builds
  // (Session.perfetto re-simulates from the first checkpoint; the session does not move).
  // Returns what was saved, for the note and the tests.
  exportPerfetto() {
    if (!this.session) return null;
    this.pause();
    const text = this.session.perfetto();
    const kernel = JSON.parse(this.session.listing()).kernel.replace(/[^A-Za-z0-9_.-]/g, '_');
    const name = `warpstep-${kernel}-cycle${this.session.cycle()}.json`;
    downloadJson(name, text);
    return { name, bytes: text.length };
  },

  // Downloads the counters over time (the model's samples) as CSV.
  exportCountersCsv() {
    if (!this.session) return null;
    const text = this.session.countersCsv();
    const name = `warpstep-counters-cycle${this.session.cycle()}.csv`;
    downloadBlob(name, new Blob([text], { type: 'text/csv' }));
    return { name, lines: text.trim().split('\n').length };
  },

  // Saves view `id` (its first canvas, as drawn) as a PNG.
  saveViewPng(el, id) {
    const canvas = el.querySelector('canvas');
    if (!canvas || !this.session) return;
    const name = `warpstep-${id}-cycle${this.session.cycle()}.png`;
    canvas.toBlob((blob) => { if (blob) downloadBlob(name, blob); }, 'image/png');
  },
};
