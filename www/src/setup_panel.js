// The Setup tab: the example's explanation, the launch flags (the CLI's syntax), the preset
// picker with the main configuration fields, and `key=value` overrides. Validation happens in
// Rust (configJson and the Session constructor), so the page shows exactly the CLI's errors.
import { presetList, configJson } from '../../pkg/warpstep.js';

const FROM_PTX = '';

export function createSetupPanel(root, { onHashEdit = () => {} } = {}) {
  const select = root.querySelector('#preset');
  const overrides = root.querySelector('#overrides');
  const launch = root.querySelector('#launch');
  const description = root.querySelector('#preset-description');
  const error = root.querySelector('#config-error');
  const json = root.querySelector('#config-json');
  const fields = [...root.querySelectorAll('[data-key]')];
  const hashField = root.querySelector('#f-hash');
  const banksField = root.querySelector('#f-banks');
  const hashError = root.querySelector('#hash-error');
  const presets = JSON.parse(presetList());

  addOption(select, FROM_PTX, '(as the PTX says, else fermi)', 'Use the PTX\'s // warpstep: --config line, or the default preset');
  for (const p of presets) addOption(select, p.name, p.name, p.description);

  function sets() {
    return overrides.value.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  }

  // Validates preset + overrides with the CLI's messages; fills the fields and the JSON view.
  function refresh() {
    const preset = presets.find((p) => p.name === select.value);
    description.textContent = preset ? preset.description : 'The PTX\'s // warpstep: --config line decides (fermi when it has none).';
    try {
      const text = configJson(select.value || 'fermi', sets());
      json.textContent = text;
      fillFields(JSON.parse(text));
      error.hidden = true;
      return null;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      return err.message;
    }
  }

  function fillFields(config) {
    for (const f of fields) {
      if (document.activeElement === f) continue;
      const v = f.dataset.key.split('.').reduce((o, k) => (o == null ? o : o[k]), config);
      if (v != null) f.value = v;
    }
  }

  // A field edit becomes (or replaces) its `key=value` line in the overrides.
  function fieldChanged(f) {
    const key = f.dataset.key;
    const lines = sets().filter((l) => !l.startsWith(`${key}=`));
    lines.push(`${key}=${f.value}`);
    overrides.value = lines.join('\n');
    refresh();
  }

  // Replaces (or adds) one `key=value` override line.
  function setOverride(key, value) {
    const lines = sets().filter((l) => !l.startsWith(`${key}=`));
    lines.push(`${key}=${value}`);
    overrides.value = lines.join('\n');
    refresh();
  }

  select.addEventListener('change', refresh);
  overrides.addEventListener('input', refresh);
  for (const f of fields) f.addEventListener('change', () => fieldChanged(f));
  // The bank-hash field (and the bank count) redraw the address-bit panel as you type.
  for (const f of [hashField, banksField]) f.addEventListener('input', () => onHashEdit());
  hashField.addEventListener('focus', () => {
    const v = document.getElementById('view-hash');
    if (v) v.scrollIntoView({ block: 'nearest' });
  });

  return {
    get: () => ({ launch: launch.value.trim().replace(/\s+/g, ' '), preset: select.value, sets: sets() }),
    set({ launch: l, preset, sets: s }) {
      launch.value = l;
      select.value = presets.some((p) => p.name === preset) ? preset : FROM_PTX;
      overrides.value = s.join('\n');
      refresh();
    },
    refresh,
    setOverride,
    // The SPEC and bank count as typed (the address-bit panel follows them before Apply).
    hashInput: () => ({ spec: hashField.value.trim() || 'mod', banks: Number(banksField.value) || 32 }),
    // Shows the bank function's error under the field (null clears it).
    showHashError(message) {
      hashError.textContent = message ? `shmem.hash: ${message}` : '';
      hashError.hidden = !message;
    },
    // The session's configuration in effect (when the PTX chose the preset).
    showConfig(text) { if (!select.value) { json.textContent = text; fillFields(JSON.parse(text)); } },
  };
}

function addOption(select, value, label, title) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  o.title = title;
  select.append(o);
}
