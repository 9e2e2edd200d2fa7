import type { Measurement } from "../../../core/model/measurement.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import type { StandaloneConfig } from "../../../core/model/measurement.ts";
import type { Queryable } from "../db/database.ts";
import { Failure, notFound } from "../http/failure.ts";
import { newId } from "../store/ids.ts";
import { getMeasurement, insertMeasurement, saveMeasurement } from "../store/measurements.ts";
import type { Effects } from "./write.ts";

// A result arriving (from a headset over the device socket, or uploaded with perimetry/upload): the measurement gets
// it, leaves its lane, and browsers get 'measurement result ready'. A headset delivers only for a measurement queued
// on it and for its own stand-alone data (anything else is not found, as another organisation's id is).

const stamped = (result: MeasurementResult, m: Measurement): MeasurementResult => ({ ...result, measurementId: m.id, patientId: m.patientId });

export const completeMeasurement = async (
  tx: Queryable,
  fx: Effects,
  org: string,
  measurementId: string,
  result: MeasurementResult,
  now: string,
  /** The headset delivering it: the measurement must be queued on it. */
  queuedOn?: string,
): Promise<Measurement> => {
  const m = await getMeasurement(tx, org, measurementId);
  if (!m || (queuedOn !== undefined && m.deviceSn !== queuedOn)) throw notFound("Measurement", "body.measurementId");
  if (m.result !== null) throw new Failure("conflict", "measurementId: this measurement already has a result", "body.measurementId");
  const done: Measurement = { ...m, result: stamped(result, m), updatedAt: now };
  await saveMeasurement(tx, org, done);
  fx.laneChanged(m.deviceSn);
  fx.event(org, "measurement", "measurement_result_ready", done, m.deviceSn);
  return done;
};

/** A stand-alone repetition: a new measurement made from the stand-alone configuration, already holding its result. */
export const recordStandaloneResult = async (
  tx: Queryable,
  fx: Effects,
  org: string,
  deviceSn: string,
  standaloneId: string,
  result: MeasurementResult,
  now: string,
): Promise<Measurement> => {
  const rows = await tx.query<{ body: StandaloneConfig }>(
    "select body from standalone_configs where organisation_id = $1 and id = $2 and device_sn = $3",
    [org, standaloneId, deviceSn],
  );
  const config = rows[0]?.body;
  if (!config) throw notFound("Stand-alone data", "body.standaloneId");
  const patient = await tx.query("select id from patients where id = $1", [config.patientId]);
  if (!patient[0]) throw notFound("Patient of the stand-alone data", "body.standaloneId");
  const id = newId();
  const m: Measurement = {
    ...config,
    id,
    deviceSn,
    notes: "",
    isFollowingEye: null,
    reliable: true,
    baseline: false,
    cloned: false,
    result: null,
    createdAt: now,
    updatedAt: now,
    trashedAt: null,
  };
  const done: Measurement = { ...m, result: stamped(result, m) };
  await insertMeasurement(tx, org, done, null);
  fx.event(org, "measurement", "measurement_result_ready", done, deviceSn);
  return done;
};
