import { newMeasurement, type Measurement, type MeasurementRegisterBody } from "../../../core/model/measurement.ts";
import { RECENT_RESULTS_LIMIT } from "../../../core/model/contract/perimetry.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import type { Queryable } from "../db/database.ts";
import { deviceBySn } from "../store/devices.ts";
import { newId } from "../store/ids.ts";
import * as measurements from "../store/measurements.ts";
import { getPatient } from "../store/patients.ts";
import { programmeOfStandalone } from "../store/home.ts";
import { checkMeasurementConfig, eyesToCreate } from "./measurement-rules.ts";
import { multiTestsOf } from "./organisation-flags.ts";
import { completeMeasurement, recordStandaloneOnce, standaloneUploadId } from "./results.ts";
import { nowIso, write } from "./write.ts";
import { hasNormativeDatabase } from "../../../core/analytics/normative/registry.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";

// Perimetry (measurements): scheduling §7 "Perimetry", accounts §7. A measurement without a result sits in its
// device's lane; trash takes it out (revision + 1), restore puts it back, delete is for good.

const patientFor = async (tx: Queryable, org: string, patientId: string) => {
  const p = await getPatient(tx, org, patientId);
  if (!p || p.trashedAt !== null) throw notFound("Patient", "body.patientId");
  return p;
};

const deviceFor = async (tx: Queryable, org: string, sn: string) => {
  const d = await deviceBySn(tx, org, sn);
  if (!d) throw notFound("Device", "body.deviceSn");
  return d;
};

const found = async (tx: Queryable, org: string, id: string) => {
  const m = await measurements.getMeasurement(tx, org, id);
  if (!m) throw notFound("Measurement");
  return m;
};

const isQueued = (m: Measurement) => m.result === null && m.trashedAt === null;

/** The web's rule (core's registry): a stored null version means none was used; otherwise the version must have tables
 * for the result's pattern (an old G or 30-2 result analysed before those tables existed has none). */
const resultHasNormativeDatabase = (r: MeasurementResult): boolean =>
  r.normativeVersion !== null && hasNormativeDatabase(r.pattern, r.normativeVersion);

/** Baseline rules (accounts §4): at most one per eye; only a reliable result with a normative database. */
const withFlags = async (tx: Queryable, org: string, m: Measurement, flags: { reliable?: boolean; baseline?: boolean }) => {
  let next = { ...m };
  if (flags.reliable !== undefined) {
    next = { ...next, reliable: flags.reliable };
    if (flags.reliable) next = { ...next, baseline: false }; // "marking it reliable again also clears a baseline mark"
  }
  if (flags.baseline !== undefined) {
    if (flags.baseline) {
      if (!next.result) throw invalid("body.baseline", "a measurement without a result cannot be baseline");
      if (!next.reliable) throw invalid("body.baseline", "an unreliable measurement cannot be baseline");
      if (!resultHasNormativeDatabase(next.result))
        throw invalid("body.baseline", "a result without a normative database cannot be baseline");
      await tx.query(
        `update measurements set body = jsonb_set(body, '{baseline}', 'false'::jsonb)
         where organisation_id = $1 and patient_id = $2 and id <> $3 and body->>'eye' = $4 and body->>'baseline' = 'true'`,
        [org, m.patientId, m.id, String(m.eye)],
      );
    }
    next = { ...next, baseline: flags.baseline };
  }
  return next;
};

export const perimetryHandlers: SomeHandlers<
  | "perimetry.get"
  | "perimetry.all"
  | "perimetry.recent"
  | "perimetry.register"
  | "perimetry.update"
  | "perimetry.restore"
  | "perimetry.trash"
  | "perimetry.delete"
  | "perimetry.allTrashed"
  | "perimetry.upload"
> = {
  "perimetry.get": async (call) => ({ data: await found(call.ctx.db, claimsOf(call).organisationId, call.query.id) }),
  "perimetry.all": async (call) => {
    const org = claimsOf(call).organisationId;
    // One query answers both "does the patient exist" and its measurements (store/measurements.ts measurementsOfPatient
    // order and columns): an export asks this once per patient, and on PGlite each query costs about a millisecond.
    const rows = await call.ctx.db.query(
      `select m.id, m.patient_id, m.device_sn, m.body, m.result, m.created_at, m.updated_at, m.trashed_at
       from patients p left join measurements m on m.organisation_id = p.organisation_id and m.patient_id = p.id and m.trashed_at is null
       where p.organisation_id = $1 and p.id = $2
       order by coalesce(m.taken_at, m.created_at) desc, m.id`,
      [org, call.query.patientId],
    );
    if (rows.length === 0) throw notFound("Patient", "query.patientId");
    return { data: rows.filter((r) => r.id !== null).map(measurements.toMeasurement) };
  },
  "perimetry.recent": async (call) => ({
    data: await measurements.recentResults(call.ctx.db, claimsOf(call).organisationId, RECENT_RESULTS_LIMIT),
  }),
  "perimetry.allTrashed": async (call) => ({ data: await measurements.trashedMeasurements(call.ctx.db, claimsOf(call).organisationId) }),
  "perimetry.register": async (call) => {
    const org = claimsOf(call).organisationId;
    const { cloned = false, ...body }: MeasurementRegisterBody = call.body;
    const now = nowIso(call.ctx);
    const created = await write(call.ctx, async (tx, fx) => {
      const patient = await patientFor(tx, org, body.patientId);
      await deviceFor(tx, org, body.deviceSn);
      checkMeasurementConfig(body, "create", patient.lang, await multiTestsOf(tx, org));
      const out: Measurement[] = [];
      let position = await measurements.nextQueuePosition(tx, body.deviceSn);
      for (const eye of eyesToCreate(body.eye)) {
        const m = newMeasurement({ ...body, eye }, newId(), now, out[0]?.id ?? null, cloned);
        await measurements.insertMeasurement(tx, org, m, position++);
        out.push(m);
        fx.event(org, "measurement", "insert", m, m.deviceSn);
      }
      fx.laneChanged(body.deviceSn);
      return out;
    });
    return { data: created };
  },
  "perimetry.update": async (call) => {
    const org = claimsOf(call).organisationId;
    const body = call.body;
    const now = nowIso(call.ctx);
    const updated = await write(call.ctx, async (tx, fx) => {
      const m = await found(tx, org, call.query.id);
      let next: Measurement;
      let position: number | undefined;
      if ("patientId" in body) {
        if (m.result !== null) throw invalid("body.result", "the measurement has a result: only notes and flags can change");
        const patient = await patientFor(tx, org, body.patientId);
        await deviceFor(tx, org, body.deviceSn);
        checkMeasurementConfig(body, "edit", patient.lang, await multiTestsOf(tx, org));
        next = { ...m, ...body, updatedAt: now };
        if (body.deviceSn !== m.deviceSn) {
          position = await measurements.nextQueuePosition(tx, body.deviceSn);
          if (isQueued(m)) fx.laneChanged(m.deviceSn);
        }
        if (isQueued(m)) fx.laneChanged(body.deviceSn);
      } else if ("notes" in body) {
        checkMeasurementConfig({ ...m, notes: body.notes }, "edit", "en", false); // only the notes limit can fail here
        next = { ...m, notes: body.notes, updatedAt: now };
        if (isQueued(m)) fx.laneChanged(m.deviceSn);
      } else {
        next = { ...(await withFlags(tx, org, m, body)), updatedAt: now };
      }
      await measurements.saveMeasurement(tx, org, next, position);
      fx.event(org, "measurement", "update", next, next.deviceSn);
      return next;
    });
    return { data: updated };
  },
  "perimetry.trash": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const m = await found(tx, org, call.query.id);
      if (m.trashedAt !== null) return m;
      const trashed = { ...m, trashedAt: nowIso(call.ctx) };
      await measurements.saveMeasurement(tx, org, trashed);
      if (isQueued(m)) fx.laneChanged(m.deviceSn);
      fx.event(org, "measurement", "trash", { id: trashed.id }, m.deviceSn);
      return trashed;
    });
    return { data };
  },
  "perimetry.restore": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const m = await found(tx, org, call.query.id);
      if (m.trashedAt === null) return m;
      const restored = { ...m, trashedAt: null };
      await measurements.saveMeasurement(tx, org, restored);
      if (isQueued(restored)) fx.laneChanged(m.deviceSn);
      fx.event(org, "measurement", "restore", restored, m.deviceSn);
      return restored;
    });
    return { data };
  },
  "perimetry.delete": async (call) => {
    const org = claimsOf(call).organisationId;
    await write(call.ctx, async (tx, fx) => {
      const m = await found(tx, org, call.query.id);
      await measurements.deleteMeasurement(tx, org, m.id);
      // The pair partner no longer follows a measurement that is gone.
      await tx.query(
        "update measurements set body = jsonb_set(body, '{isFollowingEye}', 'null'::jsonb) where organisation_id = $1 and body->>'isFollowingEye' = $2",
        [org, m.id],
      );
      if (isQueued(m)) fx.laneChanged(m.deviceSn);
      fx.event(org, "measurement", "delete", { id: m.id }, m.deviceSn);
    });
    return { data: { id: call.query.id } };
  },
  "perimetry.upload": async (call) => {
    const org = claimsOf(call).organisationId;
    const body = call.body;
    const now = nowIso(call.ctx);
    const data = await write(call.ctx, async (tx, fx) => {
      await deviceFor(tx, org, body.deviceSn);
      if (body.measurementId !== null) return completeMeasurement(tx, fx, org, body.measurementId, body.result, now);
      if (body.standaloneId !== null) {
        // A home programme's results are checked against its sessions on the device socket (home/uploads.ts), not here.
        if (await programmeOfStandalone(tx, body.deviceSn, body.standaloneId))
          throw new Failure("conflict", "A home programme's results come from its headset", "body.standaloneId");
        const id = standaloneUploadId(body.deviceSn, body.standaloneId, body.result.takenAt);
        const stored = await recordStandaloneOnce(tx, fx, org, body.deviceSn, body.standaloneId, id, body.result, now);
        if (!stored) throw notFound("The measurement this result made", "body.standaloneId");
        return stored;
      }
      throw invalid("body.measurementId", "either measurementId or standaloneId is required");
    });
    return { data };
  },
};
