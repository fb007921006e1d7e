// The kernel a lesson step runs (an example, or a PTX file beside the lessons), with its launch,
// preset and switches. A leaf module: the lesson player, its checks and its recorder import it.
import { exampleById, exampleInput } from './examples.js';

const OWN_PTX = import.meta.glob('../../lessons/*.ptx', { eager: true, query: '?raw', import: 'default' });

// The kernel a step runs: the step's own example / ptx / launch / preset / sets over the lesson's.
export function stepInput(lesson, step) {
  const src = step.example || step.ptx ? step : lesson;
  // `sets` add to the kernel's own: an example's, then the lesson's or step's, then a step's
  // that names no kernel of its own (so a step can rerun the lesson's example under a switch).
  const sets = [...(src.sets || []), ...(src === lesson ? step.sets || [] : [])];
  if (src.example) {
    const e = exampleById(src.example);
    if (!e) return null;
    // A `launch` beside the example replaces its launch flags (the same kernel, a smaller size).
    const { ptx, cuda } = exampleInput(e);
    return { ptx, ...(cuda ? { cuda } : {}), launch: src.launch || e.launch, preset: e.preset, sets: [...(e.sets || []), ...sets], example: src.example };
  }
  const ptx = OWN_PTX[`../../lessons/${src.ptx}`];
  if (typeof ptx !== 'string') return null;
  return { ptx, launch: src.launch || '', preset: src.preset || '', sets, example: '' };
}
