import { strategyShortName } from "../../../core/analytics/series-sources.ts";
import type { Eye, Pattern } from "../../../core/model/enums.ts";
import type { ImportFileReport } from "../../../core/model/import.ts";
import { sourceDeviceName } from "../../../core/model/result-source.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { write } from "../handlers/write.ts";
import { insertMeasurements } from "../store/measurements.ts";
import { getPatient, insertPatients, patientColumns, toPatient } from "../store/patients.ts";
import { itemOf, type ImportTarget, PatientPool, type Planning, planFile, poolQuery, unwritten } from "./import-plan.ts";
import type { ReadFile } from "./read-file.ts";

// A call's files into the organisation (issue 29: "nothing is written by halves: one file is one transaction"), in one
// transaction under the organisation's import lock: the keys and candidate patients read once, every file planned in
// memory (import-plan.ts: a file with a refused field contributes nothing), then the plan written in three statements
// (patients, measurements, keys). Each file is thus all or nothing, and a folder costs a handful of statements per
// call, not per file (bench:import). A dry run plans and writes nothing. A unique constraint hit by a concurrent
// writer (another process registering the same patient ID) runs the call again from the start (handlers/write.ts).

export type { ImportTarget } from "./import-plan.ts";

/** Thrown to end a dry run's transaction while keeping its reports. */
class RolledBack extends Error {
  constructor(readonly reports: ImportFileReport[]) {
    super("rolled back");
  }
}

/** The measurements already imported under these keys (one query for a whole call). */
export async function importedKeys(q: Queryable, organisationId: string, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await q.query<{ source_key: string; measurement_id: string }>(
    "select source_key, measurement_id from imported_results where organisation_id = $1 and source_key = any($2)",
    [organisationId, keys],
  );
  return new Map(rows.map((r) => [r.source_key, r.measurement_id]));
}

/**
 * A file every field of which was imported before: its report without a transaction (a folder imported again is
 * mostly such files). Null when anything in it is new or refused: that is planned in the transaction.
 */
export function duplicateReport(name: string, read: ReadFile, known: ReadonlyMap<string, string>): ImportFileReport | null {
  const { reading, format } = read;
  if (!reading.ok || reading.refused.length > 0 || reading.fields.length === 0) return null;
  if (!reading.fields.every((f) => known.has(f.result.source.key))) return null;
  return {
    file: name,
    format,
    action: "duplicate",
    reason: null,
    items: reading.fields.map((f) => ({ ...itemOf(f, "duplicate", "imported before"), measurementId: known.get(f.result.source.key)! })),
  };
}

/**
 * Reports of the files whose one key (a DICOM file's SOP Instance UID, read from its head) was imported before, each
 * named with what the stored field is; null for every other file, which is read whole.
 */
export async function knownInstances(
  q: Queryable,
  organisationId: string,
  files: ReadonlyArray<{ readonly name: string; readonly uid: string | null }>,
): Promise<Array<ImportFileReport | null>> {
  const known = await importedKeys(
    q,
    organisationId,
    files.flatMap((f) => (f.uid === null ? [] : [f.uid])),
  );
  if (known.size === 0) return files.map(() => null);
  const stored = new Map(
    (
      await q.query<{
        id: string;
        taken_at: string;
        eye: string;
        pattern: string;
        manufacturer: string | null;
        model: string | null;
        strategy: string | null;
      }>(
        `select id, taken_at, result_eye as eye, result_pattern as pattern, result->'source'->>'manufacturer' as manufacturer,
                result->'source'->>'model' as model, result->'source'->>'strategyName' as strategy
           from measurements where organisation_id = $1 and id = any($2)`,
        [organisationId, [...known.values()]],
      )
    ).map((r) => [r.id, r]),
  );
  return files.map((f) => {
    const measurementId = f.uid === null ? undefined : known.get(f.uid);
    const m = measurementId === undefined ? undefined : stored.get(measurementId);
    if (!m) return null;
    return {
      file: f.name,
      format: "dicom-opv",
      action: "duplicate",
      reason: null,
      items: [
        {
          item: `SOP Instance ${f.uid}`,
          action: "duplicate",
          reason: "imported before",
          patient: null,
          measurementId: m.id,
          takenAt: m.taken_at,
          eye: Number(m.eye) as Eye,
          pattern: Number(m.pattern) as Pattern,
          device: [sourceDeviceName(m), m.strategy && strategyShortName(m.strategy)].filter(Boolean).join(" · "),
        },
      ],
    };
  });
}

const fieldsOf = (read: ReadFile) => (read.reading.ok ? read.reading.fields : []);

export async function importFiles(
  ctx: ServerContext,
  target: ImportTarget,
  files: ReadonlyArray<{ readonly name: string; readonly read: ReadFile }>,
  known: ReadonlyMap<string, string>,
): Promise<ImportFileReport[]> {
  const reports: Array<ImportFileReport | null> = files.map((f) => duplicateReport(f.name, f.read, known));
  if (reports.every((r) => r !== null)) return reports as ImportFileReport[];
  const org = target.organisationId;
  try {
    return await write(ctx, async (tx, fx) => {
      // One import at a time per organisation: two calls naming the same new patient create them once.
      await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`import:${org}`]);
      const pending = files.filter((_, i) => reports[i] === null);
      const fields = pending.flatMap((f) => fieldsOf(f.read));
      const { ids, birthdates } = poolQuery(target, fields);
      const candidates = await tx.query(
        `select ${patientColumns} from patients where organisation_id = $1 and (body->>'uniqueId' = any($2) or birthdate = any($3))`,
        [org, ids, birthdates],
      );
      const planning: Planning = {
        target,
        pool: new PatientPool(candidates.map(toPatient)),
        // Read again under the lock: another call may have stored some since `known`.
        keys: await importedKeys(
          tx,
          org,
          fields.map((f) => f.result.source.key),
        ),
        writes: { patients: [], measurements: [], keys: [] },
      };
      const out = files.map((f, i) => reports[i] ?? planFile(planning, f.name, f.read));
      if (target.dryRun) throw new RolledBack(out.map((r) => ({ ...r, items: r.items.map(unwritten) })));
      const { patients, measurements, keys } = planning.writes;
      await insertPatients(
        tx,
        org,
        patients.map((p) => ({ id: p.id, fields: p.fields })),
        target.now,
      );
      await insertMeasurements(tx, org, measurements);
      if (keys.length > 0)
        await tx.query(
          `insert into imported_results (organisation_id, source_key, measurement_id, format, file_name, imported_at)
           select $1, k, m, f, n, $6 from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as t(k, m, f, n)`,
          [
            org,
            keys.map((k) => k.key),
            keys.map((k) => k.measurementId),
            keys.map((k) => k.format),
            keys.map((k) => k.fileName),
            target.now,
          ],
        );
      for (const p of patients) {
        const full = await getPatient(tx, org, p.id);
        if (full) fx.event(org, "patient", "insert", full);
      }
      return out;
    });
  } catch (e) {
    if (e instanceof RolledBack) return e.reports;
    throw e;
  }
}
