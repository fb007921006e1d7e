// Colours: the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies and
// on a projector), keyed by the warp-state names Rust exports (tables().warp_states). Views also
// write the state's name next to a colour wherever there is room, so colour is never the only cue.
export const OKABE = {
  black: '#000000', orange: '#e69f00', sky: '#56b4e9', green: '#009e73',
  yellow: '#f0e442', blue: '#0072b2', vermillion: '#d55e00', purple: '#cc79a7',
};

const STATE_COLOURS = {
  idle: '#2a313b',
  issued: OKABE.green,
  no_instruction: '#8a96a3',
  branch_resolving: OKABE.yellow,
  short_scoreboard: OKABE.sky,
  long_scoreboard: OKABE.blue,
  barrier: OKABE.purple,
  math_pipe_throttle: OKABE.orange,
  mio_throttle: '#f5c46b',
  lg_throttle: '#a66d00',
  not_selected: '#9fe0c9',
  drain: '#5b6672',
  bank_conflict: OKABE.vermillion,
  writeback_conflict: '#ffb0d8',
  scheduling_fail: '#ffffff',
  mrpb_full: '#7a3d00',
  inactive: '#44505e',
  mrpb_drain: '#b8742a',
  barrel: '#6f5a8a',
  swl_limit: '#3d6b8c',
  ccws_throttle: '#8c3d6b',
};

export function stateColour(name) {
  return STATE_COLOURS[name] || '#777777';
}

// Text colour that reads on top of a fill.
export function inkOn(fill) {
  const n = parseInt(fill.slice(1), 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? '#000000' : '#ffffff';
}

// Lane colours for the bank grid: the eight Okabe-Ito hues cycled with lane / 8 shading, and
// the lane number is always written in the cell.
const LANE_BASE = [OKABE.sky, OKABE.orange, OKABE.green, OKABE.yellow, OKABE.blue, OKABE.vermillion, OKABE.purple, '#bbbbbb'];
export function laneColour(lane) {
  return LANE_BASE[lane % 8];
}

export const UI = {
  box: '#222b36', boxLine: '#4a5666', text: '#e8edf2', muted: '#a9b5c1', accent: OKABE.sky,
  selected: OKABE.yellow, arrow: '#6f7d8c', changed: OKABE.yellow,
};
