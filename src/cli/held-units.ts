// The end of every `settle run …`: the units of work another settle process held are named on
// stdout, and when that was every unit asked for, the run ends with ERR_ALREADY_RUNNING (exit 4).
import { checkNotAllHeld, heldLines } from '../main/work-units.js';
import type { UnitClaims } from '../store/index.js';

export function finishUnits(units: UnitClaims): void {
  for (const line of heldLines(units)) process.stdout.write(`${line}\n`);
  checkNotAllHeld(units);
}
