import { newMeasurement, type Measurement, type StandaloneConfig } from "../../../core/model/measurement.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import type { Queryable } from "../db/database.ts";
import { Failure, notFound } from "../http/failure.ts";
import { newId } from "../store/ids.ts";
import { getMeasurement, insertMeasurement, saveMeasurement } from "../store/measurements.ts";
import type { Effects } from "./write.ts";

// A result arriving (from a headset over the device socket, or uploaded with perimetry/upload): the measurement gets
// it, leaves its lane, and browsers get 'measurement result ready'. A headset delivers only for a measurement queued
// on it and for its own stand-alone data (anything else is not found, as another organisation's id is). Uploads are
// idempotent: the same result again answers the measurement as stored (a different one is 409), and a stand-alone
// upload is stored once per identity.

const stamped = (result: MeasurementResult, m: Measurement): MeasurementResult => ({
  ...result,
  measurementId: m.id,
  patientId: m.patientId,
});

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
  const m = await getMeasurement(tx, org, measurementId, true);
  if (!m || (queuedOn !== undefined && m.deviceSn !== queuedOn)) throw notFound("Measurement", "body.measurementId");
  if (m.result !== null) {
    if (canonicalJson(m.result) === canonicalJson(stamped(result, m))) return m; // the same upload again
    throw new Failure("conflict", "measurementId: this measurement already has a result", "body.measurementId");
  }
  const done: Measurement = { ...m, result: stamped(result, m), updatedAt: now };
  await saveMeasurement(tx, org, done);
  fx.laneChanged(m.deviceSn);
  fx.event(org, "measurement", "measurement_result_ready", done, m.deviceSn);
  return done;
};

/** A stand-alone repetition: a new measurement made from the stand-alone configuration, already holding its result. */
const recordStandaloneResult = async (
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
  const m = newMeasurement({ ...config, deviceSn, notes: "" }, id, now);
  const done: Measurement = { ...m, result: stamped(result, m) };
  await insertMeasurement(tx, org, done, null);
  fx.event(org, "measurement", "measurement_result_ready", done, deviceSn);
  return done;
};

/** JSON with object keys sorted (jsonb does not keep the order they were sent in). */
const canonicalJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/** The identity of a stand-alone result uploaded with perimetry/upload (the device socket's uploads carry a resultId). */
export const standaloneUploadId = (deviceSn: string, standaloneId: string, takenAt: string) =>
  `upload:${deviceSn}:${standaloneId}:${takenAt}`;

/** A stand-alone result stored once per identity (standalone_results' primary key): a repeat answers the measurement
 * made the first time, or undefined when that one has been deleted since. */
export const recordStandaloneOnce = async (
  tx: Queryable,
  fx: Effects,
  org: string,
  deviceSn: string,
  standaloneId: string,
  resultId: string,
  result: MeasurementResult,
  now: string,
): Promise<Measurement | undefined> => {
  const seen = await tx.query<{ measurement_id: string }>(
    "select measurement_id from standalone_results where device_sn = $1 and result_id = $2",
    [deviceSn, resultId],
  );
  if (seen[0]) return getMeasurement(tx, org, seen[0].measurement_id);
  const stored = await recordStandaloneResult(tx, fx, org, deviceSn, standaloneId, result, now);
  await tx.query("insert into standalone_results (result_id, device_sn, measurement_id, received_at) values ($1, $2, $3, $4)", [
    resultId,
    deviceSn,
    stored.id,
    now,
  ]);
  return stored;
};
