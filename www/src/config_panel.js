// The configuration panel: pick a preset, type `key=value` overrides, see the resulting config.
// Validation happens in Rust (configJson), so the page shows exactly the CLI's error messages.
import { presetList, configJson } from '../../pkg/warpstep.js';

export function mountConfigPanel(panel) {
  const select = panel.querySelector('#preset');
  const overrides = panel.querySelector('#overrides');
  const description = panel.querySelector('#preset-description');
  const error = panel.querySelector('#config-error');
  const json = panel.querySelector('#config-json');
  const presets = JSON.parse(presetList());

  for (const p of presets) {
    const option = document.createElement('option');
    option.value = p.name;
    option.textContent = p.name;
    option.title = p.description;
    select.append(option);
  }

  function refresh() {
    const preset = presets.find((p) => p.name === select.value);
    description.textContent = preset ? preset.description : '';
    const sets = overrides.value.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
    try {
      json.textContent = configJson(select.value, sets);
      error.hidden = true;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  }

  select.addEventListener('change', refresh);
  overrides.addEventListener('input', refresh);
  panel.hidden = false;
  refresh();
}
