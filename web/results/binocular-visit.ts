// A result's visit seen with both eyes (issue 30): the fellow eye's result of the same day among the patient's results
// and the binocular integrated field of the two, found by core (visitWithBothEyes) as the CLI's printed page finds it.

import { visitWithBothEyes, type VisitWithBothEyes } from "../../core/analytics/binocular.ts";
import type { WithResult } from "./result-model.ts";

export type BinocularVisit = VisitWithBothEyes<WithResult>;

/** The visit of `current` with both eyes, or null for a result that is not one eye's (Esterman is binocular already). */
export const binocularVisit = (current: WithResult, results: readonly WithResult[], timeZone: string): BinocularVisit | null =>
  visitWithBothEyes(current, results, (m) => m.result, timeZone);
