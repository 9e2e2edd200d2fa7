import type { Examination } from "../../../core/model/examination.ts";
import { Eye } from "../../../core/model/enums.ts";

export interface AmslerVisit {
  key: string;
  at: string;
  right: Examination[];
  left: Examination[];
}

/**
 * "The Amsler page groups results by appointment, left and right eye side by side." (accounts seed §2) Results only:
 * "Scheduled examination: result is null" (§4), so a queued Amsler test is not listed until its answer arrives (issue 21:
 * it showed as a result "without result"); an appointment with one eye answered shows the other as not tested.
 */
export function amslerVisits(list: ReadonlyArray<Examination>): AmslerVisit[] {
  const visits = new Map<string, AmslerVisit>();
  for (const e of list) {
    if (e.type !== "amsler" || e.trashedAt !== null || e.result === null) continue;
    const key = e.appointmentId ?? e.id;
    const at = e.result.takenAt;
    const visit = visits.get(key) ?? { key, at, right: [], left: [] };
    if (at > visit.at) visit.at = at;
    if (e.eye === Eye.Left) visit.left.push(e);
    else if (e.eye === Eye.Right) visit.right.push(e);
    else {
      visit.left.push(e);
      visit.right.push(e);
    }
    visits.set(key, visit);
  }
  return [...visits.values()].sort((a, b) => b.at.localeCompare(a.at));
}
