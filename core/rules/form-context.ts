import type { Language } from "../model/enums.ts";

/** Measurement form modes (scheduling seed §2 "Modes: create, edit, clone, stand-alone"). */
export const FormModes = ["create", "edit", "clone", "standalone"] as const;
export type FormMode = (typeof FormModes)[number];

/**
 * The two product variants chosen by a feature flag (scheduling seed §1). Our reading: "older" is the
 * measurement-based dashboard, "newer" the appointment/examination-based one.
 */
export const Variants = ["older", "newer"] as const;
export type Variant = (typeof Variants)[number];

/** What the form knows besides the config itself. */
export interface ConfigContext {
  readonly mode: FormMode;
  readonly variant: Variant;
  /** Language of the chosen patient; null while no patient is chosen. */
  readonly patientLanguage: Language | null;
}
