// Full-speed pacing, shared by the app and the benchmark page: each animation frame simulates a
// cycle budget sized so that simulating and redrawing take about FRAME_WORK_MS together, which
// leaves the browser time to paint. 22 ms keeps the page above 30 frames per second (about 36-40
// at 1280x720) while giving the simulation most of each frame (issue 6: 200,000 simulated cycles
// per second on fermi with 48 warps, at 30+ frames per second).
// The Run speeds of the slider in cycles/s, by index; the last is full speed.
export const SPEEDS = [1, 2, 5, 10, 30, 100, 1000, 10000, Infinity];
export const FRAME_WORK_MS = 22;
export const MIN_SIM_MS = 4;

// The next budget (cycles) after `budget` took `simMs` to simulate and the last redraws took
// `drawMs` on average, for `workMs` of work a frame.
export function nextBudget(budget, simMs, drawMs, workMs = FRAME_WORK_MS) {
  const target = Math.max(MIN_SIM_MS, workMs - drawMs);
  const scale = Math.min(2, Math.max(0.25, target / Math.max(simMs, 0.1)));
  return Math.max(100, Math.min(1_000_000, Math.round(budget * scale)));
}
