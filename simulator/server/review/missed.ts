import { clinicDate, dueSessions } from "../../../core/home/index.ts";
import { clinicTime } from "../../../core/model/clinic-time.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { lockDevices } from "../store/devices.ts";
import { nowIso, write } from "../handlers/write.ts";
import type { NoticeActor } from "../notify/notices.ts";
import * as home from "../store/home.ts";
import { newId } from "../store/ids.ts";
import { notifyPatient } from "./notify.ts";
import { insertItem } from "./store.ts";

// Missed sessions become review items when their window has closed (issue 31 §2, §3). Found on read: the review queue,
// its counts and the adherence list sweep the organisation's active programmes first (our choice: no timer to run or
// to coordinate between a cluster's processes; an item appears at the latest when someone looks). A session is missed
// as core/home's adherence counts it: its window closed before the clinic's today without a result for every eye.
// Each missed session is one item (unique per programme and session) carrying how many were missed in a row up to
// it, and one reminder to the patient (key "missed:<programme>:<session>").

/** The missed sessions of one programme on `today`: each with the number missed in a row up to and including it. */
export const missedSessions = (
  p: home.ProgrammeRow,
  filled: ReadonlyMap<number, number>,
  today: string,
): Array<{ index: number; from: string; to: string; inRow: number }> => {
  const rules = home.rulesOf(p);
  const out: Array<{ index: number; from: string; to: string; inRow: number }> = [];
  let inRow = 0;
  for (const s of dueSessions(rules, rules.start, rules.end)) {
    if (s.to >= today) break;
    const tested = filled.get(s.index) ?? 0;
    if (tested === rules.eyes.length) inRow = 0;
    else {
      // A session with some eyes tested is missed (adherence counts it so) but ends the run: the patient was there.
      inRow = tested > 0 ? 1 : inRow + 1;
      out.push({ ...s, inRow });
      if (tested > 0) inRow = 0;
    }
  }
  return out;
};

/** The programme's missed sessions on `today`, from the results stored now. */
const missedNow = async (q: Queryable, p: home.ProgrammeRow, today: string) => {
  const { slots } = await home.storedResults(q, p);
  const filled = new Map<number, number>();
  for (const s of slots) filled.set(s.index, (filled.get(s.index) ?? 0) + 1);
  return missedSessions(p, filled, today);
};

/**
 * The clinic day each programme was last swept on, per server: a window closes once a day, so a programme is read again
 * only on a new clinic day (the home page's counts would otherwise read every programme on every visit). Another
 * process of a cluster sweeps on its own; the items' and notices' keys keep the outcome once.
 */
const sweptOn = new WeakMap<ServerContext, Map<string, string>>();

/** Stores the organisation's newly missed sessions as items and reminds their patients, once each. */
export const sweepMissed = async (ctx: ServerContext, org: string, actor: NoticeActor): Promise<void> => {
  const swept = sweptOn.get(ctx) ?? new Map<string, string>();
  sweptOn.set(ctx, swept);
  const ids = await ctx.db.query<{ id: string; time_zone: string }>(
    "select id, time_zone from home_programmes where organisation_id = $1 and state = 'active'",
    [org],
  );
  for (const { id, time_zone } of ids) {
    const now = nowIso(ctx);
    const day = clinicTime(now, time_zone).date;
    if (swept.get(id) === day) continue;
    const p = await home.programmeById(ctx.db, org, id);
    if (p?.state !== "active") continue;
    const today = clinicDate(home.rulesOf(p), now);
    if ((await missedNow(ctx.db, p, today)).length > 0)
      await write(ctx, async (tx) => {
        // Read again under the headset's row lock, which an upload holds until its commit (home/uploads.ts): a result
        // stored since the read above is seen, so its session gets no stale missed item beside its result.
        await lockDevices(tx, [p.deviceSn]);
        for (const s of await missedNow(tx, p, today)) {
          const itemId = newId();
          const inserted = await insertItem(tx, {
            id: itemId,
            organisationId: org,
            patientId: p.patientId,
            programmeId: p.id,
            measurementId: null,
            eye: null,
            // The window's last day at its end, on the clinic's calendar read as UTC: an order key, not a clock time.
            takenAt: `${s.to}T23:59:59.999Z`,
            session: { index: s.index, from: s.from, to: s.to },
            flags: [{ kind: "missed", reasons: [{ code: "missed-sessions", sessions: s.inRow }] }],
            failed: false,
            createdAt: now,
          });
          if (!inserted) continue;
          await notifyPatient(
            ctx,
            tx,
            actor,
            p,
            {
              key: `missed:${p.id}:${s.index}`,
              subject: "A home test was missed",
              body: `The home test due from ${s.from} to ${s.to} was not done. Please run the next one when it is due.`,
              recordId: itemId,
            },
            now,
          );
        }
      });
    swept.set(id, day);
  }
};
