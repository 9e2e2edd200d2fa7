import { type FlagReason, missedBefore, type Triage, triage } from "../../../core/home/index.ts";
import type { ReviewFlagReason } from "../../../core/model/contract/index.ts";
import type { Eye } from "../../../core/model/enums.ts";
import type { ServerContext } from "../context.ts";
import { nowIso, write } from "../handlers/write.ts";
import type * as home from "../store/home.ts";
import { storedResults } from "../store/home.ts";
import { newId } from "../store/ids.ts";
import { measurementsOfPatient } from "../store/measurements.ts";
import { getPatient } from "../store/patients.ts";
import { log } from "../log.ts";
import { notifyFlagged } from "./notify.ts";
import { insertItem } from "./store.ts";

// Triage on arrival (issue 31 §2): after a home result is committed (home/uploads.ts), core/home's triage reads it
// against the patient's series of that eye and pattern, and its flags are stored as a review item. It runs after the
// result's transaction, never inside it: a triage that fails loses nothing; it is logged and its item stored as
// "triage failed", so the result still appears in the queue.

// The contract mirrors core/home's reasons (core/model cannot import core/home): each must be assignable to the other.
const toWire = (r: FlagReason): ReviewFlagReason => r;
const fromWire = (r: ReviewFlagReason): FlagReason => r;
void fromWire;

/** The triage of one stored home result, read from the database (throws when it cannot be made). */
export const triageOf = async (ctx: ServerContext, p: home.ProgrammeRow, measurementId: string): Promise<Triage> => {
  const org = p.organisationId;
  const patient = await getPatient(ctx.db, org, p.patientId);
  if (!patient) throw new Error(`patient ${p.patientId} not found`);
  const all = await measurementsOfPatient(ctx.db, org, p.patientId);
  const self = all.find((m) => m.id === measurementId);
  if (!self?.result) throw new Error(`result ${measurementId} not found`);
  const series = all.flatMap((m) => (m.result && m.id !== measurementId ? [m.result] : []));
  const unreliableIds = new Set(all.filter((m) => m.result && !m.reliable).map((m) => m.id));
  const baselineId = all.find((m) => m.baseline && m.eye === self.eye)?.id ?? null;
  const rows = await ctx.db.query<{ session_index: number }>("select session_index from home_results where measurement_id = $1", [
    measurementId,
  ]);
  const { slots } = await storedResults(ctx.db, p);
  const index = rows[0]?.session_index;
  const missedSessions = index === undefined ? 0 : missedBefore({ index, eye: self.result.eye }, slots);
  return triage({ result: self.result, series, birthdate: patient.birthdate, unreliableIds, baselineId, missedSessions });
};

/**
 * A result uploaded late (taken in its session's window, sent after it closed, as the outbox does after a cut) may
 * complete a session already swept as missed: that item, while nobody has reviewed it, no longer stands and goes.
 */
const settleMissed = (ctx: ServerContext, p: home.ProgrammeRow, measurementId: string) =>
  ctx.db.query(
    `delete from review_items r where r.programme_id = $1 and r.kind = 'missed' and r.state = 'new'
       and r.session_index = (select session_index from home_results where measurement_id = $2)
       and (select count(*) from home_results h where h.programme_id = $1 and h.session_index = r.session_index) >= $3`,
    [p.id, measurementId, p.eyes.length],
  );

/** The triage in use: tests replace `of` with one that throws, to see a failure handled (the result stays stored). */
export const triageRunner = { of: triageOf };

/**
 * Stores the review item of a home result just committed, then tells the programme's clinician when it is flagged.
 * Never throws: a failure is logged and leaves an item marked "triage failed".
 */
export const triageOnArrival = async (
  ctx: ServerContext,
  p: home.ProgrammeRow,
  stored: { readonly measurementId: string; readonly takenAt: string; readonly eye: Eye },
  source: { readonly deviceSn: string; readonly address: string },
): Promise<void> => {
  const { measurementId, takenAt, eye } = stored;
  const base = { organisationId: p.organisationId, patientId: p.patientId, programmeId: p.id, measurementId, session: null };
  await settleMissed(ctx, p, measurementId).catch((e) =>
    log.error("review_missed_not_settled", { programme: p.id, measurement: measurementId, error: String(e) }),
  );
  try {
    const t = await triageRunner.of(ctx, p, measurementId);
    const flags = t.flags.map((f) => ({ kind: f.kind, reasons: f.reasons.map(toWire) }));
    const id = newId();
    await write(ctx, async (tx) => {
      const now = nowIso(ctx);
      const inserted = await insertItem(tx, { ...base, id, eye: t.eye, takenAt: t.takenAt, flags, failed: false, createdAt: now });
      if (inserted && flags.length > 0) await notifyFlagged(ctx, tx, p, id, flags, source, now);
    });
  } catch (e) {
    log.error("review_triage_failed", { programme: p.id, measurement: measurementId, error: String(e) });
    try {
      const now = nowIso(ctx);
      await insertItem(ctx.db, { ...base, id: newId(), eye, takenAt, flags: [], failed: true, createdAt: now });
    } catch (e2) {
      log.error("review_item_lost", { programme: p.id, measurement: measurementId, error: String(e2) });
    }
  }
};
