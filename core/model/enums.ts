import { Schema } from "effect";

// Every enumeration of both seeds, with the numeric codes the seeds give (scheduling seed §3, accounts seed §3).
// Each enum is a const object (names for code) plus a Schema of its values; types come from the schemas.

const values = <T extends Record<string, string | number>>(e: T) => Object.values(e) as Array<T[keyof T]>;
const literals = <T extends Record<string, string | number>>(e: T) =>
  Schema.Literals(values(e) as unknown as readonly [T[keyof T], ...Array<T[keyof T]>]);

/** Strategy codes: Undefined 0, Normal 1, SORS 2, DS 3, Supra 4, 1LT 5, SORS_screening 999 (SORS with 16 locations). */
export const Strategy = { Undefined: 0, Normal: 1, SORS: 2, DS: 3, Supra: 4, OneLevel: 5, SORS_screening: 999 } as const;
export const StrategySchema = literals(Strategy);
export type Strategy = Schema.Schema.Type<typeof StrategySchema>;
/**
 * Each strategy's spellings, in one place: `name` as screens and printouts show it (English; core/plots names it by the
 * message id plots.print.strategy.<key>, which the web translates), `label` the seeds' short name in a test's name
 * ("24-2 DS"), `csv` the visualFields CSV's type column.
 */
export const strategyCodes: Record<
  Strategy,
  { readonly key: string; readonly name: string; readonly label: string; readonly csv: string }
> = {
  0: { key: "undefined", name: "Undefined", label: "Undefined", csv: "undefined" },
  1: { key: "normal", name: "Normal", label: "Normal", csv: "normal" },
  2: { key: "sors", name: "SORS", label: "SORS", csv: "sors" },
  3: { key: "dynamic", name: "Dynamic", label: "DS", csv: "ds" },
  4: { key: "supra", name: "Supra-threshold", label: "Supra", csv: "supra" },
  5: { key: "oneLevel", name: "One level", label: "1LT", csv: "1lt" },
  999: { key: "sorsScreening", name: "SORS screening", label: "SORS screening", csv: "sors-screening" },
};

/** Stimulus size I..V and III_ADAPTIVE as 0..5. */
export const StimulusSize = { I: 0, II: 1, III: 2, IV: 3, V: 4, III_ADAPTIVE: 5 } as const;
export const StimulusSizeSchema = literals(StimulusSize);
export type StimulusSize = Schema.Schema.Type<typeof StimulusSizeSchema>;

/** Stimulus showtime in ms. */
export const Showtime = { Ms100: 100, Ms200: 200, Ms500: 500 } as const;
export const ShowtimeSchema = literals(Showtime);
export type Showtime = Schema.Schema.Type<typeof ShowtimeSchema>;

/** Stimuli update (interval) in ms; adaptive is 9999. */
export const StimuliUpdate = { Ms1000: 1000, Ms1200: 1200, Ms1500: 1500, Ms2000: 2000, Ms2500: 2500, Adaptive: 9999 } as const;
export const StimuliUpdateSchema = literals(StimuliUpdate);
export type StimuliUpdate = Schema.Schema.Type<typeof StimuliUpdateSchema>;

/** SORS location counts; 16 is SORS screening. */
export const SorsLocations = [10, 16, 20, 36, 48, 54] as const;
export const SorsLocationsSchema = Schema.Literals(SorsLocations);
export type SorsLocations = Schema.Schema.Type<typeof SorsLocationsSchema>;

/** Patterns in the seeds' order: Undefined, 24-2, G, 10-2, 30-2, S28 (screening 28), Esterman (120 degrees), C40. */
export const Pattern = { Undefined: 0, P24_2: 1, G: 2, P10_2: 3, P30_2: 4, S28: 5, Esterman: 6, C40: 7 } as const;
export const PatternSchema = literals(Pattern);
export type Pattern = Schema.Schema.Type<typeof PatternSchema>;
export const patternLabel: Record<Pattern, string> = {
  0: "Undefined",
  1: "24-2",
  2: "G",
  3: "10-2",
  4: "30-2",
  5: "S28",
  6: "Esterman",
  7: "C40",
};

/** Eye: Right, Left, Both (only when creating), Binocular (Esterman). */
export const Eye = { Right: 0, Left: 1, Both: 2, Binocular: 3 } as const;
export const EyeSchema = literals(Eye);
export type Eye = Schema.Schema.Type<typeof EyeSchema>;
/** The eye as clinical records abbreviate it (exports, file names, the visualFields CSV): both eyes and binocular are OU. */
export const eyeCodes: Record<Eye, "OD" | "OS" | "OU"> = { 0: "OD", 1: "OS", 2: "OU", 3: "OU" };

/** Sex / gender: female, male, other (numeric on the wire). */
export const Sex = { Female: 0, Male: 1, Other: 2 } as const;
export const SexSchema = literals(Sex);
export type Sex = Schema.Schema.Type<typeof SexSchema>;

export const TestType = { Perimetry: "perimetry", Amsler: "amsler", Acuity: "acuity", ColorBlindness: "color-blindness" } as const;
export const TestTypeSchema = literals(TestType);
export type TestType = Schema.Schema.Type<typeof TestTypeSchema>;

export const RegulatoryRegion = { FDA: "FDA", UK: "UK", BR: "BR", MDR: "MDR" } as const;
export const RegulatoryRegionSchema = literals(RegulatoryRegion);
export type RegulatoryRegion = Schema.Schema.Type<typeof RegulatoryRegionSchema>;

/** Amsler answer: healthy is shown 'Normal'; the others 'Abnormal' plus the kind. */
export const AmslerAnswer = { Healthy: "healthy", Wavy: "wavy", Missing: "missing", NotSure: "not-sure" } as const;
export const AmslerAnswerSchema = literals(AmslerAnswer);
export type AmslerAnswer = Schema.Schema.Type<typeof AmslerAnswerSchema>;

export const TestResultStatus = { Passed: "passed", Failed: "failed", InProgress: "in-progress", NotTested: "not-tested" } as const;
export const TestResultStatusSchema = literals(TestResultStatus);
export type TestResultStatus = Schema.Schema.Type<typeof TestResultStatusSchema>;

export const SortOrder = { Ascending: "ascending", Descending: "descending" } as const;
export const SortOrderSchema = literals(SortOrder);
export type SortOrder = Schema.Schema.Type<typeof SortOrderSchema>;

/** Interface and patient languages: en, fr, de, it, es, chi, mexsp, bp, nl, tr. */
export const Languages = ["en", "fr", "de", "it", "es", "chi", "mexsp", "bp", "nl", "tr"] as const;
export const LanguageSchema = Schema.Literals(Languages);
export type Language = Schema.Schema.Type<typeof LanguageSchema>;

export const Role = { User: "user", Manager: "manager", Admin: "admin" } as const;
export const RoleSchema = literals(Role);
export type Role = Schema.Schema.Type<typeof RoleSchema>;

/** Device statuses; an unknown value falls back to notconnected (see `deviceStatusOrNotConnected`). */
export const DeviceStatus = {
  NotConnected: "notconnected",
  Standby: "standby",
  AwaitMeasurement: "awaitmeasurement",
  AudioPlaying: "audioplaying",
  Countdown: "countdown",
  AwaitUserInput: "awaituserinput",
  Calibrating: "calibrating",
  Playing: "playing",
  Paused: "paused",
  Stopped: "stopped",
  Finished: "finished",
  Tutorial: "tutorial",
} as const;
export const DeviceStatusSchema = literals(DeviceStatus);
export type DeviceStatus = Schema.Schema.Type<typeof DeviceStatusSchema>;
const deviceStatuses = new Set<string>(values(DeviceStatus));
/** "An unknown value falls back to not connected." (scheduling seed §4) */
export const deviceStatusOrNotConnected = (value: unknown): DeviceStatus =>
  typeof value === "string" && deviceStatuses.has(value) ? (value as DeviceStatus) : DeviceStatus.NotConnected;

export const ConnectionStatus = { Connected: "CONNECTED", Disconnected: "DISCONNECTED" } as const;
export const ConnectionStatusSchema = literals(ConnectionStatus);
export type ConnectionStatus = Schema.Schema.Type<typeof ConnectionStatusSchema>;

/** Browser live-socket states. */
export const SocketState = {
  Uninstantiated: "uninstantiated",
  Connecting: "connecting",
  Open: "open",
  Closing: "closing",
  Closed: "closed",
} as const;
export const SocketStateSchema = literals(SocketState);
export type SocketState = Schema.Schema.Type<typeof SocketStateSchema>;

/** Live event types (scheduling seed §4 "Live events"). */
export const LiveEventType = {
  Device: "device",
  Patient: "patient",
  Measurement: "measurement",
  Examination: "examination",
  Appointment: "appointment",
  DragAndDrop: "drag_and_drop",
  Reorder: "reorder",
  Connection: "connection",
} as const;
export const LiveEventTypeSchema = literals(LiveEventType);
export type LiveEventType = Schema.Schema.Type<typeof LiveEventTypeSchema>;

/** Live event operations. */
export const LiveOperation = {
  Insert: "insert",
  Update: "update",
  Restore: "restore",
  Trash: "trash",
  Delete: "delete",
  MeasurementResultReady: "measurement_result_ready",
  DeviceTransferIn: "device_transfer_in",
  DeviceTransferOut: "device_transfer_out",
  MeasurementProgress: "measurement_progress",
  ExaminationProgress: "examination_progress",
  /** Ours (type device): the headset's clicker dropped out and it stopped the test (scheduling §8 "Clicker disconnected |
   * test stopped message"); the seeds' operation list has no entry for it. */
  ClickerDisconnected: "clicker_disconnected",
} as const;
export const LiveOperationSchema = literals(LiveOperation);
export type LiveOperation = Schema.Schema.Type<typeof LiveOperationSchema>;

/** Gaze calibration: in progress while calibrating, not tested when null, passed when true, failed when false. */
export const GazeCalibration = { InProgress: "in-progress", NotTested: "not-tested", Passed: "passed", Failed: "failed" } as const;
export const GazeCalibrationSchema = literals(GazeCalibration);
export type GazeCalibration = Schema.Schema.Type<typeof GazeCalibrationSchema>;

/**
 * Patient languages: "the patient language list has eight entries (English, Dutch, German, French, Italian, Mexican
 * Spanish, Brazilian Portuguese, Simplified Chinese)" (accounts §1). A subset of Languages, in the seed's order.
 */
export const PatientLanguages = ["en", "nl", "de", "fr", "it", "mexsp", "bp", "chi"] as const satisfies ReadonlyArray<Language>;
export const PatientLanguageSchema = Schema.Literals(PatientLanguages);
export type PatientLanguage = Schema.Schema.Type<typeof PatientLanguageSchema>;

/**
 * Interface languages the switcher lists: "English, German, French, Italian, Spanish, Portuguese, Dutch and Turkish"
 * (accounts §1); Spanish is es, Portuguese bp.
 */
export const SwitcherLanguages = ["en", "de", "fr", "it", "es", "bp", "nl", "tr"] as const satisfies ReadonlyArray<Language>;

/**
 * Client cache keys (scheduling §3 "Cache keys (client)"): devices, patient search, measurements, patients, trashed
 * measurements, trashed patients, users, examinations, amsler grid, templates, current organisation, appointments,
 * trashed appointments.
 */
export const CacheKey = {
  Devices: "devices",
  PatientSearch: "patientSearch",
  Measurements: "measurements",
  Patients: "patients",
  TrashedMeasurements: "trashedMeasurements",
  TrashedPatients: "trashedPatients",
  Users: "users",
  Examinations: "examinations",
  AmslerGrid: "amslerGrid",
  Templates: "templates",
  CurrentOrganisation: "currentOrganisation",
  Appointments: "appointments",
  TrashedAppointments: "trashedAppointments",
} as const;
export const CacheKeySchema = literals(CacheKey);
export type CacheKey = Schema.Schema.Type<typeof CacheKeySchema>;
