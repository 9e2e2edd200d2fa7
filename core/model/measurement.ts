import { Schema } from "effect";
import { MeasurementConfigSchema } from "./measurement-config.ts";
import { MeasurementResultSchema } from "./measurement-result.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { OrderSchema } from "./order.ts";

// Measurement (perimetry) as stored and listed (scheduling §3, accounts §3): the form's configuration plus
// bookkeeping, flags and the result (null until taken).

export const MeasurementSchema = Schema.Struct({
  id: IdSchema,
  ...MeasurementConfigSchema.fields,
  patientId: IdSchema,
  /** The device whose lane queues it; null once the device is gone. */
  deviceSn: Schema.NullOr(DeviceSnSchema),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  /** Id of the paired other-eye measurement (created together with 'Both'); they move together. */
  isFollowingEye: Schema.NullOr(IdSchema),
  reliable: Schema.Boolean,
  baseline: Schema.Boolean,
  cloned: Schema.Boolean,
  result: Schema.NullOr(MeasurementResultSchema),
  /** The worklist step it was queued for (issue 29): travels into the result's OPV and FHIR. */
  order: Schema.optionalKey(OrderSchema),
  /** When it went to the bin; null while active. */
  trashedAt: Schema.NullOr(IsoDateTimeSchema),
});
export type Measurement = Schema.Schema.Type<typeof MeasurementSchema>;

/** What a new measurement is stored from: its settings with the patient chosen (and the device whose lane queues it). */
export type NewMeasurementConfig = Omit<
  Measurement,
  "id" | "createdAt" | "updatedAt" | "isFollowingEye" | "reliable" | "baseline" | "cloned" | "result" | "trashedAt" | "order"
>;

/**
 * A measurement as it is first stored: the settings chosen, its id and creation time, no result yet, reliable and not
 * a baseline, active; `isFollowingEye` is the other eye's measurement created with it ('Both'); `cloned` when the
 * measurement form saved it in its clone mode (a lane card's Clone), else false.
 */
export const newMeasurement = (
  config: NewMeasurementConfig,
  id: string,
  createdAt: string,
  isFollowingEye: string | null = null,
  cloned = false,
): Measurement => ({
  ...config,
  id,
  isFollowingEye,
  reliable: true,
  baseline: false,
  cloned,
  result: null,
  createdAt,
  updatedAt: createdAt,
  trashedAt: null,
});

/** Body of perimetry/register and the full PATCH perimetry: the configuration with patient and device chosen. */
export const MeasurementBodySchema = Schema.Struct({
  ...MeasurementConfigSchema.fields,
  patientId: IdSchema,
  deviceSn: DeviceSnSchema,
});
export type MeasurementBody = Schema.Schema.Type<typeof MeasurementBodySchema>;

/**
 * Body of perimetry/register: the seed's fields, and `cloned` (our design: the seeds name the stored cloned flag and the
 * form's clone mode but not how it reaches the server) set by the measurement form's clone mode. Without it (every
 * call as the seeds list it) the measurement is stored with cloned false.
 */
export const MeasurementRegisterBodySchema = Schema.Struct({
  ...MeasurementBodySchema.fields,
  cloned: Schema.optionalKey(Schema.Boolean),
});
export type MeasurementRegisterBody = Schema.Schema.Type<typeof MeasurementRegisterBodySchema>;

/** Stand-alone configuration: the measurement config without notes and deviceSn (scheduling §7 device/standalone). */
export const StandaloneConfigSchema = MeasurementBodySchema.mapFields(({ notes: _n, deviceSn: _d, ...rest }) => rest);
export type StandaloneConfig = Schema.Schema.Type<typeof StandaloneConfigSchema>;
