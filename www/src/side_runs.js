// Runs of this kernel beside the app's own, as methods of the App (app.js mixes them in): the
// Elastic paper's three pipelines for the pipeline view's comparison, and the SIMT stack against
// convergence barriers for the SIMT view's. Each is a Session of its own, built from the loaded
// input with other overrides, run, read through its snapshots and freed at once.
import { Session } from '../../pkg/warpstep.js';

// The comparison of the Elastic paper's three pipelines (pipeline view): the overrides each run
// gets on top of the session's own (whose pipeline keys it replaces), and the cycles recorded
// around the current one.
const PIPELINES = [
  { mode: 'in_order', sets: ['elastic.enabled=false', 'elastic.baseline=in_order'] },
  { mode: 'split', sets: ['elastic.enabled=false', 'elastic.baseline=split'] },
  { mode: 'elastic', sets: ['elastic.enabled=true'] },
];
const COMPARE_BEFORE = 200;
const COMPARE_AFTER = 400;
// The stack / convergence-barriers comparison (SIMT view): the two runs, each with the session's
// overrides and its core.divergence, and the cycle at which a run still going is cut off.
const DIVERGENCE_MODES = [
  { mode: 'stack', sets: ['core.divergence=stack'] },
  { mode: 'convergence_barriers', sets: ['core.divergence=convergence_barriers'] },
];
const DIVERGENCE_CAP = 20_000;

export const sideRuns = {
  // Runs this kernel under the in-order, split and elastic pipelines (Elastic Figs. 4-5) in three
  // extra Sessions, each with the session's launch, preset and overrides plus its pipeline's,
  // and records what their back ends did in each cycle from COMPARE_BEFORE cycles before the
  // current one to COMPARE_AFTER after it (as the snapshot says: writeback winners, the stall
  // that stopped issue, MEM0 replaying a conflict). The Sessions are freed at once.
  comparePipelines() {
    if (!this.session || !this.loaded) return;
    this.pause();
    const l = this.loaded;
    const now = this.session.cycle();
    const from = Math.max(0, now - COMPARE_BEFORE);
    const to = now + COMPARE_AFTER;
    const own = l.sets.filter((s) => !/^\s*elastic\.(baseline|enabled)\s*=/.test(s));
    const sm = this.sm;
    const rows = PIPELINES.map(({ mode, sets }) => {
      let s;
      try {
        s = new Session(l.ptx, l.launch, l.preset, [...own, ...sets]);
      } catch (err) {
        return { mode, sets, error: err.message, cycles: [] };
      }
      try {
        while (s.cycle() < from && !s.finished()) s.runUntil(from, 100_000);
        const cycles = [];
        while (s.cycle() < to && !s.finished()) {
          s.step(1);
          // Only the back end's part of the snapshot is built (snapshot.js).
          const b = JSON.parse(s.snapshotParts(sm, this.tables.snapshot_parts.back_end, 0)).sm.back_end;
          cycles.push({
            c: s.cycle(),
            wb: b.committed.map(([w, i]) => [w, i.op, i.pc, i.line]),
            stall: b.exe_stall,
            replay: b.mem0 && b.mem0.replaying_conflict ? [b.mem0.warp, b.mem0.instr.op] : null,
          });
        }
        return { mode, sets, from, cycles, end: s.finished() ? s.cycle() : null, status: s.status() };
      } finally {
        s.free();
      }
    });
    this.compare = { build: this.builds, from, to, rows, aligned: false };
    this.draw(true);
  },

  // Runs this kernel under the SIMT stack and under convergence barriers (book §3.1.1 vs
  // §3.1.2) in two extra Sessions, each with the session's launch, preset and overrides and its
  // own core.divergence, to the end or DIVERGENCE_CAP cycles, recording the selected warp's
  // issues (the model's issue trace: cycle, line, active mask), how the run ended and its
  // report (with the buffers the example watches). The Sessions are freed at once.
  compareDivergence() {
    if (!this.session || !this.loaded) return;
    this.pause();
    const l = this.loaded;
    const own = l.sets.filter((s) => !/^\s*core\.divergence\s*=/.test(s));
    const watch = l.watch || [];
    const sm = this.sm;
    const warp = this.warp;
    const rows = DIVERGENCE_MODES.map(({ mode, sets }) => {
      let s;
      try {
        s = new Session(l.ptx, l.launch, l.preset, [...own, ...sets]);
      } catch (err) {
        return { mode, sets, error: err.message, status: null, cycles: 0, issues: [], watched: [], report: null, warp, cap: DIVERGENCE_CAP };
      }
      try {
        s.setTracing(true);
        const issues = [];
        while (!s.finished() && s.cycle() < DIVERGENCE_CAP) {
          s.runUntil(Math.min(DIVERGENCE_CAP, s.cycle() + 2000), 2000);
          for (const e of JSON.parse(s.takeIssues())) if (e.sm === sm && e.warp === warp) issues.push({ cycle: e.cycle, line: e.line, mask: e.mask, lanes: e.lanes });
        }
        const report = JSON.parse(s.reportWithBuffers(Uint32Array.from(watch.map((w) => w.arg))));
        const watched = watch.map((w) => {
          const b = report.buffers && report.buffers[String(w.arg)];
          return { name: w.name, value: b ? b[w.index || 0] : null };
        });
        return { mode, sets, status: s.status(), cycles: s.cycle(), issues, watched, report, warp, cap: DIVERGENCE_CAP };
      } finally {
        s.free();
      }
    });
    this.divergence = { build: this.builds, sm, warp, warpSize: this.snap ? this.snap.warp_size : 32, rows };
    this.draw(true);
  },

  alignCompare(on) {
    if (!this.compare) return;
    this.compare.aligned = on;
    this.draw(true);
  },
};
