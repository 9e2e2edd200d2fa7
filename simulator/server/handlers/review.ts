import { adherence, belowThreshold, clinicDate, repeatCounts, repeatState, repeatWindow } from "../../../core/home/index.ts";
import { type HomeAdherenceRow, REVIEW_PAGE_MAX } from "../../../core/model/contract/index.ts";
import type { MeasurementRegisterBody } from "../../../core/model/measurement.ts";
import { insertRepeat, repeatOfItem, repeatsOf } from "../home/repeats.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import { type Call, claimsOf, type SomeHandlers } from "../http/handler.ts";
import type { NoticeActor } from "../notify/notices.ts";
import { sweepMissed } from "../review/missed.ts";
import { notifyPatient } from "../review/notify.ts";
import * as review from "../review/store.ts";
import { lockDevices } from "../store/devices.ts";
import * as home from "../store/home.ts";
import { getPatient } from "../store/patients.ts";
import { perimetryHandlers } from "./perimetry.ts";
import { nowIso, write } from "./write.ts";

// The review queue and the adherence list (issue 31 §2, §3; core/model/contract/review.ts). Every call is audited by
// the router; the messages they cause by notify/notices.ts. Missed sessions are found on read (review/missed.ts).

const actorOf = (call: Pick<Call<"review.queue">, "claims" | "client">): NoticeActor => {
  const c = claimsOf(call);
  return { actorKind: "user", actorId: c.sub, actorName: c.username, address: call.client };
};

const found = async (call: Pick<Call<"review.mark">, "ctx" | "claims">, id: string) => {
  const item = await review.itemById(call.ctx.db, claimsOf(call).organisationId, id, nowIso(call.ctx));
  if (!item) throw notFound("Review item");
  return item;
};

type Names = "review.queue" | "review.counts" | "review.mark" | "review.note" | "review.repeat" | "review.book" | "home.adherenceList";

export const reviewHandlers: SomeHandlers<Names> = {
  "review.queue": async (call) => {
    const org = claimsOf(call).organisationId;
    const { flag = null, state = "new", page = 0, quantity = 50 } = call.query;
    if (page < 0) throw invalid("query.page", "0 or more");
    if (quantity < 1 || quantity > REVIEW_PAGE_MAX) throw invalid("query.quantity", `1 to ${REVIEW_PAGE_MAX}`);
    await sweepMissed(call.ctx, org, actorOf(call));
    const { items, total } = await review.queuePage(call.ctx.db, org, { flag, state, page, quantity }, nowIso(call.ctx));
    return { data: { items, total, page }, patientsRead: [...new Set(items.map((i) => i.patient.id))] };
  },
  "review.counts": async (call) => {
    const org = claimsOf(call).organisationId;
    await sweepMissed(call.ctx, org, actorOf(call));
    return { data: await review.countsOf(call.ctx.db, org) };
  },
  "review.mark": async (call) => {
    const c = claimsOf(call);
    await review.changeItem(call.ctx.db, c.organisationId, (await found(call, call.query.id)).id, {
      kind: "mark",
      by: c.username,
      at: nowIso(call.ctx),
      note: call.body.note,
    });
    return { data: await found(call, call.query.id) };
  },
  "review.note": async (call) => {
    await found(call, call.query.id);
    await review.changeItem(call.ctx.db, claimsOf(call).organisationId, call.query.id, { kind: "note", note: call.body.note });
    return { data: await found(call, call.query.id) };
  },
  "review.repeat": async (call) => {
    const c = claimsOf(call);
    const org = c.organisationId;
    const item = await found(call, call.query.id);
    // What may be repeated: a home result (a missed session has no result: call the patient or book a visit).
    if (item.kind !== "result" || item.eye === null)
      throw invalid("query.id", "only a home result can be repeated; this item is a missed session (book a clinic visit instead)");
    await write(call.ctx, async (tx, fx) => {
      const p = await home.programmeById(tx, org, item.programmeId);
      if (!p) throw notFound("Home programme");
      await lockDevices(tx, [p.deviceSn]); // after an end or an upload of the same headset, never between
      const current = (await home.programmeById(tx, org, p.id))!;
      if (current.state !== "active")
        throw new Failure(
          "conflict",
          `The home programme has ended (${current.endedReason ?? "ended"}): no repeat can be sent to its headset`,
        );
      if (await repeatOfItem(tx, item.id)) throw new Failure("conflict", "A repeat was asked for on this item already");
      const now = nowIso(call.ctx);
      const rules = home.rulesOf(current);
      const today = clinicDate(rules, now);
      const { slots } = await home.storedResults(tx, current);
      const eye = item.eye!;
      const pending = (await repeatsOf(tx, p.id)).find((r) => r.eyes.includes(eye) && repeatState(r, slots, today) === "pending");
      if (pending) throw new Failure("conflict", `A repeat of this eye is pending already (open ${pending.from} to ${pending.to})`);
      const window = repeatWindow(rules, today);
      if (!window) throw new Failure("conflict", `The home programme's last day (${rules.end}) has passed: no repeat fits in it`);
      await insertRepeat(tx, { programmeId: p.id, itemId: item.id, eyes: [eye], ...window, by: c.username, at: now });
      await review.changeItem(tx, org, item.id, { kind: "repeat", at: now });
      fx.standaloneChanged(p.deviceSn); // the headset's schedule lists the repeat
      await notifyPatient(
        call.ctx,
        tx,
        actorOf(call),
        current,
        {
          key: `repeat:${item.id}`,
          subject: "Your clinic asks you to repeat a home test",
          body: `Please run the home test once more between ${window.from} and ${window.to}; the headset offers it.`,
          recordId: item.id,
        },
        now,
      );
    });
    return { data: await found(call, call.query.id) };
  },
  "review.book": async (call) => {
    const org = claimsOf(call).organisationId;
    const item = await found(call, call.query.id);
    const p = await home.programmeById(call.ctx.db, org, item.programmeId);
    if (!p) throw notFound("Home programme");
    const [config] = await call.ctx.db.query<{ body: Omit<MeasurementRegisterBody, "deviceSn" | "notes"> }>(
      "select body from standalone_configs where id = $1",
      [p.standaloneId],
    );
    if (!config) throw notFound("Home programme's test");
    // The existing path (perimetry/register): its checks, its queue, its events. The tutorial was for home use.
    const body: MeasurementRegisterBody = {
      ...config.body,
      tutorial: false,
      deviceSn: call.body.deviceSn,
      notes: "Booked from the review queue",
    };
    const { data: queued } = await perimetryHandlers["perimetry.register"]({
      ...call,
      query: undefined,
      body,
    } as Call<"perimetry.register">);
    await review.changeItem(call.ctx.db, org, item.id, { kind: "book", measurementIds: queued.map((m) => m.id) });
    return { data: await found(call, call.query.id) };
  },
  "home.adherenceList": async (call) => {
    const org = claimsOf(call).organisationId;
    await sweepMissed(call.ctx, org, actorOf(call));
    const ids = await call.ctx.db.query<{ id: string }>("select id from home_programmes where organisation_id = $1 and state = 'active'", [
      org,
    ]);
    const rows: HomeAdherenceRow[] = [];
    for (const { id } of ids) {
      const p = await home.programmeById(call.ctx.db, org, id);
      const patient = p && (await getPatient(call.ctx.db, org, p.patientId));
      if (!p || !patient) continue;
      const rules = home.rulesOf(p);
      const today = clinicDate(rules, nowIso(call.ctx));
      const stored = await home.storedResults(call.ctx.db, p);
      const a = adherence(rules, stored.uploads, today);
      rows.push({
        programmeId: p.id,
        patient: { id: patient.id, name: patient.name },
        today,
        due: a.due,
        done: a.done,
        missed: a.missed,
        partial: a.partial,
        rate: a.rate,
        repeats: repeatCounts(await repeatsOf(call.ctx.db, p.id), stored.slots, today),
      });
    }
    const below = call.query.below;
    const list =
      below === undefined
        ? rows.sort((a, b) => a.patient.name.localeCompare(b.patient.name) || (a.programmeId < b.programmeId ? -1 : 1))
        : belowThreshold(
            rows.map((r) => ({ ...r, patientId: r.patient.id })),
            below,
          ).map(({ patientId: _p, ...r }) => r as HomeAdherenceRow);
    return { data: list, patientsRead: [...new Set(list.map((r) => r.patient.id))] };
  },
};
