import { Schema } from "effect";
import { EyeSchema } from "./enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Visual-acuity result of an examination (test type "acuity"). The seeds name the test type but describe no result: this
// shape is ours, modelled on how clinics record acuity. One entry per eye tested (an examination for both eyes gives two),
// each with the logMAR the patient reached and the optotypes shown and read; the Snellen (6/x, 20/x) and decimal
// equivalents are derived from logMAR when shown (core/rules/acuity-colour.ts), never stored. Like the Amsler result it
// names the device and the appointment it was taken in.

/** Chart / optotype kind: ETDRS letters, Snellen letters, tumbling E, Landolt C. */
export const AcuityChart = { Etdrs: "etdrs", Snellen: "snellen", TumblingE: "tumbling-e", LandoltC: "landolt-c" } as const;
export const AcuityChartSchema = Schema.Literals(Object.values(AcuityChart) as ["etdrs", "snellen", "tumbling-e", "landolt-c"]);
export type AcuityChart = Schema.Schema.Type<typeof AcuityChartSchema>;

/** logMAR range a result may carry: -0.3 (6/3, the ETDRS chart's last line) to 2.0 (6/600, counting fingers and worse). */
export const LOGMAR_MIN = -0.3;
export const LOGMAR_MAX = 2;

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));

/** One eye's acuity. */
export const AcuityEyeResultSchema = Schema.Struct({
  eye: EyeSchema,
  /** Smallest size read, logMAR (0 = 6/6 = 20/20; lower is better). */
  logMAR: Schema.Finite.check(Schema.isBetween({ minimum: LOGMAR_MIN, maximum: LOGMAR_MAX })),
  /** Optotypes (letters, Es, Cs) presented to this eye. */
  optotypesPresented: Count,
  /** Of those, read correctly. */
  optotypesCorrect: Count,
}).check(
  Schema.makeFilter((r) =>
    r.optotypesCorrect <= r.optotypesPresented
      ? undefined
      : { path: ["optotypesCorrect"], issue: "Expected no more optotypes correct than presented" },
  ),
);
export type AcuityEyeResult = Schema.Schema.Type<typeof AcuityEyeResultSchema>;

export const AcuityResultSchema = Schema.Struct({
  chart: AcuityChartSchema,
  /** Per eye tested, in the order tested. */
  eyes: Schema.NonEmptyArray(AcuityEyeResultSchema),
  takenAt: IsoDateTimeSchema,
  deviceSn: DeviceSnSchema,
  appointmentId: Schema.NullOr(IdSchema),
});
export type AcuityResult = Schema.Schema.Type<typeof AcuityResultSchema>;
