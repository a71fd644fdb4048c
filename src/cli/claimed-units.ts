// The end of every `settle run …`: the units of work another settle process has claimed are named on
// stdout, and when that was every unit asked for, the run ends with ERR_ALREADY_RUNNING (exit 4).
import { checkNotAllClaimed, claimedLines } from '../main/work-units.js';
import type { UnitClaims } from '../store/index.js';

export function finishUnits(units: UnitClaims): void {
  for (const line of claimedLines(units)) process.stdout.write(`${line}\n`);
  checkNotAllClaimed(units);
}
