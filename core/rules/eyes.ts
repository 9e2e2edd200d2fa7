import { Eye, type Pattern } from "../model/enums.ts";
import { message, type RuleMessage } from "./messages.ts";
import type { FormMode } from "./form-context.ts";
import { patternOptions } from "./pattern-options.ts";

/**
 * "'Both eyes' is offered only when creating, not when editing or cloning (perimetry and Amsler alike)."
 * (scheduling seed §5). Our reading: stand-alone mode repeats one chosen measurement (§4), so it offers no 'Both' either.
 */
export const offersBothEyes = (mode: FormMode): boolean => mode === "create";

/** Eyes the perimetry form offers for a pattern in a mode (the §5 table's eye column, less 'Both' outside create). */
export const eyesFor = (pattern: Pattern, mode: FormMode): readonly Eye[] =>
  (patternOptions(pattern)?.eyes ?? []).filter((eye) => eye !== Eye.Both || offersBothEyes(mode));

/** Eyes the Amsler form offers: right, left, and both only when creating. */
export const amslerEyes = (mode: FormMode): readonly Eye[] =>
  offersBothEyes(mode) ? [Eye.Right, Eye.Left, Eye.Both] : [Eye.Right, Eye.Left];

/** "The Amsler form requires an eye." (scheduling seed §5) */
export const validateAmslerEye = (eye: Eye | null | undefined, mode: FormMode): RuleMessage | undefined =>
  eye === null || eye === undefined ? message("required") : amslerEyes(mode).includes(eye) ? undefined : message("optionNotAllowed");
