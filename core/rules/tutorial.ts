import type { Language } from "../model/enums.ts";
import type { Variant } from "./form-context.ts";

/**
 * "Tutorial needs audio guide on, gaze tracking on (in one variant) and patient language English." (scheduling seed §5)
 * The seed does not say which variant needs gaze tracking; our reading: the newer (appointment-based) one.
 */
export const tutorialNeedsGazeTracking = (variant: Variant): boolean => variant === "newer";

export interface TutorialInputs {
  readonly audioGuide: boolean;
  readonly trackGaze: boolean;
  /** null while no patient is chosen: the tutorial is then unavailable. */
  readonly patientLanguage: Language | null;
  readonly variant: Variant;
}

export const tutorialAvailable = ({ audioGuide, trackGaze, patientLanguage, variant }: TutorialInputs): boolean =>
  audioGuide && (trackGaze || !tutorialNeedsGazeTracking(variant)) && patientLanguage === "en";
