import type { Language } from "../model/enums.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import { defaultMeasurementConfig } from "./defaults.ts";
import type { ConfigContext, FormMode, Variant } from "./form-context.ts";
import { normaliseConfig, onPatientSelected, type SelectedPatient } from "./form-dependencies.ts";

/** The test settings a new form takes over from the patient's last measurement (not patient, device, name or notes). */
export const prefilledFields = [
  "eye",
  "pattern",
  "strategy",
  "stimuliUpdate",
  "stimuliSize",
  "stimuliShowtime",
  "sorsStage",
  "playSound",
  "trackGaze",
  "audioGuide",
  "tutorial",
] as const satisfies ReadonlyArray<keyof MeasurementConfig>;
export type PrefilledField = (typeof prefilledFields)[number];

/** What prefill needs of a stored measurement; dates are ISO strings or epoch milliseconds. */
export type PastMeasurement = Pick<MeasurementConfig, PrefilledField> & {
  readonly createdAt: string | number;
  readonly result?: { readonly takenAt: string | number } | null;
};

const instant = (value: string | number): number => (typeof value === "number" ? value : Date.parse(value));
/** "latest result takenAt, else createdAt" (scheduling seed §4). */
const measurementTime = (m: PastMeasurement): number => instant(m.result?.takenAt ?? m.createdAt);

/** The patient's last measurement: by its result's takenAt, else its createdAt; the first one wins a tie. */
export const lastMeasurement = <M extends PastMeasurement>(measurements: readonly M[]): M | undefined =>
  measurements.reduce<M | undefined>(
    (latest, m) => (latest === undefined || measurementTime(m) > measurementTime(latest) ? m : latest),
    undefined,
  );

/**
 * "New forms are prefilled from the patient's last measurement (latest result takenAt, else createdAt), else
 * defaults." (scheduling seed §4). The result is brought into the rules of the context (e.g. SORS with 16 becomes
 * SORS screening, 'Both' leaves outside create mode, the tutorial needs an English-speaking patient).
 */
export const prefillConfig = (variant: Variant, measurements: readonly PastMeasurement[], context: ConfigContext): MeasurementConfig => {
  const last = lastMeasurement(measurements);
  const base = defaultMeasurementConfig(variant);
  if (last === undefined) return normaliseConfig(base, context);
  const taken = Object.fromEntries(prefilledFields.map((field) => [field, last[field]])) as Pick<MeasurementConfig, PrefilledField>;
  return normaliseConfig({ ...base, ...taken }, context);
};

export interface OpenFormInputs {
  readonly mode: FormMode;
  readonly variant: Variant;
  /** The chosen patient, if any (stand-alone and device-lane forms may open without one). */
  readonly patient?: (SelectedPatient & { readonly lang: Language }) | null;
  /** The patient's measurements, for the create and stand-alone prefill. */
  readonly measurements?: readonly PastMeasurement[];
  /** The measurement being edited or cloned (required for edit and clone). */
  readonly source?: MeasurementConfig;
}

/**
 * The config and context a measurement form opens with. Create and stand-alone: prefill (or defaults), then patient
 * selection (display name 'Test' plus the name). Edit and clone: the source measurement brought into the rules.
 */
export const openMeasurementForm = (inputs: OpenFormInputs): { readonly config: MeasurementConfig; readonly context: ConfigContext } => {
  const context: ConfigContext = { mode: inputs.mode, variant: inputs.variant, patientLanguage: inputs.patient?.lang ?? null };
  if ((inputs.mode === "edit" || inputs.mode === "clone") && inputs.source !== undefined)
    return { config: normaliseConfig(inputs.source, context), context };
  const config = prefillConfig(inputs.variant, inputs.measurements ?? [], context);
  return inputs.patient ? onPatientSelected(config, inputs.patient, context) : { config, context };
};
