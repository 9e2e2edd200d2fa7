import { ApiError } from "../model/contract/errors.ts";
import type { Appointment } from "../model/appointment.ts";
import type { Device } from "../model/device.ts";
import type { Measurement } from "../model/measurement.ts";
import type { Api, Clock } from "../ports.ts";
import { planDrop, type Drop, type DropPlan } from "../scheduling/drop-plan.ts";
import { appointmentDropRequest, measurementDropRequest } from "../scheduling/drop-request.ts";
import { REORDER_FAILED_NOTICE, REORDER_WIGGLE_MS, reorderExaminations } from "../scheduling/examination-order.ts";
import type { Lane } from "../scheduling/lane.ts";
import type { Notice } from "../scheduling/notice.ts";
import { CacheKey } from "./cache-keys.ts";
import { entriesOf, mapData } from "./cache-snapshot.ts";
import type { OwnLane } from "./live-reducer.ts";
import { replaceItem } from "./list-ops.ts";
import type { QueryCache } from "./query-cache.ts";

// Commands on the technician view's lanes (scheduling seed §4 "Drag and drop of measurements", "Examination reorder"):
// optimistic order first, then the call; on conflict refetch, on any other failure flash, wiggle or revert.

/** "error flash and wiggle 500 ms" (scheduling seed §9). */
export const ERROR_FLASH_MS = 500;

/** "On conflict (HTTP 409 or error type device_revision_conflict) devices are refetched." */
export const isRevisionConflict = (e: unknown): boolean =>
  e instanceof ApiError && (e.status === 409 || e.responseType === "device_revision_conflict");

export interface LaneCommandContext {
  readonly api: Api;
  readonly clock: Clock;
  readonly cache: QueryCache;
  /** Current lanes for planning, one per cached device (running flags from device tracking). */
  measurementLanes(): Lane<Measurement>[];
  appointmentLanes(): Lane<Appointment>[];
  notify(notice: Notice): void;
  /** Lanes this client's drags moved: device id -> the revision awaited, then answered (the live reducer's
   * ownLaneRevisions), so the drag's own live events cost no refetch. */
  readonly ownLaneRevisions: Map<string, OwnLane>;
  /** Lanes (device ids) in the 500 ms error flash, and appointments in the 500 ms wiggle. */
  readonly flashing: Set<string>;
  readonly wiggling: Set<string>;
  changed(): void;
}

function setQueues(ctx: LaneCommandContext, field: "perimetries" | "appointments", lanes: readonly Lane[]) {
  const byId = new Map(lanes.map((l) => [l.deviceId, l.items]));
  ctx.cache.update((s) =>
    mapData(s, CacheKey.Devices, (devices) => devices.map((d) => (byId.has(d.id) ? ({ ...d, [field]: byId.get(d.id) } as Device) : d))),
  );
}

function setRevisions(ctx: LaneCommandContext, sides: readonly { deviceId: string; revision: number }[]) {
  const byId = new Map(sides.map((s) => [s.deviceId, s.revision]));
  ctx.cache.update((s) =>
    mapData(s, CacheKey.Devices, (devices) => devices.map((d) => (byId.has(d.id) ? { ...d, revision: byId.get(d.id)! } : d))),
  );
}

type Moved = { readonly before: { readonly from: Lane; readonly to: Lane }; readonly after: { readonly from: Lane; readonly to: Lane } };
type Field = OwnLane["field"];

/** A drag is sent: the server stores exactly the lists sent and bumps each lane once, so its answer and its events
 * carry revision + 1 (the live reducer knows them as this client's own while the lane shows these lists). */
function awaitLanes(ctx: LaneCommandContext, field: Field, plan: Moved) {
  for (const [before, after] of [
    [plan.before.from, plan.after.from],
    [plan.before.to, plan.after.to],
  ] as const)
    ctx.ownLaneRevisions.set(after.deviceId, { field, revision: (before.revision ?? 0) + 1, ids: after.items.map((c) => c.id) });
}

/** The drag is answered: its lanes are at the answered revisions. A read of the devices under way may predate the
 * drag, and one that landed meanwhile may have put other lists in its place: then the lanes are read again. */
function settleLanes(ctx: LaneCommandContext, field: Field, plan: Moved, answer: readonly { deviceId: string; revision: number }[]) {
  for (const side of answer) {
    const own = ctx.ownLaneRevisions.get(side.deviceId);
    if (own !== undefined) ctx.ownLaneRevisions.set(side.deviceId, { ...own, revision: side.revision });
  }
  setRevisions(ctx, answer);
  const entries = entriesOf(ctx.cache.snapshot, CacheKey.Devices);
  const sent = new Map([plan.after.from, plan.after.to].map((lane) => [lane.deviceId, lane.items.map((c) => c.id).join()]));
  const shown = entries.flatMap((e) => e.data ?? []).filter((d) => sent.has(d.id));
  const asSent = shown.length === sent.size && shown.every((d) => (d[field] ?? []).map((c) => c.id).join() === sent.get(d.id));
  if (!asSent || entries.some((e) => e.status === "loading")) void ctx.cache.refetch(CacheKey.Devices);
}

/** A failed drag's lanes are read again (failDrop): nothing of them is this client's own any more. */
function forgetLanes(ctx: LaneCommandContext, deviceIds: readonly string[]) {
  for (const id of deviceIds) ctx.ownLaneRevisions.delete(id);
}

/** "On any other failure the affected devices flash an error state for 500 ms and then refetch." */
function failDrop(ctx: LaneCommandContext, error: unknown, deviceIds: readonly string[]) {
  if (isRevisionConflict(error)) {
    void ctx.cache.refetch(CacheKey.Devices);
    return;
  }
  for (const id of deviceIds) ctx.flashing.add(id);
  ctx.changed();
  ctx.clock.setTimeout(() => {
    for (const id of deviceIds) ctx.flashing.delete(id);
    ctx.changed();
    void ctx.cache.refetch(CacheKey.Devices);
  }, ERROR_FLASH_MS);
}

/** Drag of a measurement card. Resolves with the plan once the server has answered (or at once when not sent). */
export async function moveMeasurement(ctx: LaneCommandContext, drop: Drop): Promise<DropPlan<Measurement>> {
  const plan = planDrop(ctx.measurementLanes(), drop);
  if (plan.outcome === "refused") ctx.notify(plan.notice);
  if (plan.outcome !== "moved") return plan;
  setQueues(ctx, "perimetries", [plan.after.from, plan.after.to]);
  const lanes = [...new Set([plan.after.from.deviceId, plan.after.to.deviceId])];
  awaitLanes(ctx, "perimetries", plan);
  try {
    const answer = await ctx.api.call("device.dragAndDropPerimetry", { body: measurementDropRequest(plan) });
    settleLanes(ctx, "perimetries", plan, [answer.from, answer.to]);
  } catch (e) {
    forgetLanes(ctx, lanes);
    failDrop(ctx, e, lanes);
  }
  return plan;
}

/** Drag of a whole appointment between lanes (appointment variant). */
export async function moveAppointment(ctx: LaneCommandContext, drop: Drop): Promise<DropPlan<Appointment>> {
  const plan = planDrop(ctx.appointmentLanes(), drop);
  if (plan.outcome === "refused") ctx.notify(plan.notice);
  if (plan.outcome !== "moved") return plan;
  setQueues(ctx, "appointments", [plan.after.from, plan.after.to]);
  const lanes = [...new Set([plan.after.from.deviceId, plan.after.to.deviceId])];
  awaitLanes(ctx, "appointments", plan);
  try {
    const answer = await ctx.api.call("device.dragAndDropAppointment", { body: appointmentDropRequest(plan) });
    settleLanes(ctx, "appointments", plan, [answer.from, answer.to]);
  } catch (e) {
    forgetLanes(ctx, lanes);
    failDrop(ctx, e, lanes);
  }
  return plan;
}

function findAppointment(ctx: LaneCommandContext, id: string): Appointment | undefined {
  for (const e of ctx.cache.snapshot.values()) {
    if (e.data === undefined) continue;
    if (e.key === CacheKey.Appointments) {
      const found = (e.data as readonly Appointment[]).find((a) => a.id === id);
      if (found) return found;
    }
    if (e.key === CacheKey.Devices)
      for (const d of e.data as readonly Device[]) {
        const found = d.appointments?.find((a) => a.id === id);
        if (found) return found;
      }
  }
  return undefined;
}

function putAppointment(ctx: LaneCommandContext, appointment: Appointment) {
  ctx.cache.update((s) => {
    let next = mapData(s, CacheKey.Appointments, (list) => replaceItem(list, appointment));
    next = mapData(next, CacheKey.Devices, (devices) =>
      devices.map((d) => {
        if (!d.appointments) return d;
        const queue = replaceItem(d.appointments, appointment);
        return queue === d.appointments ? d : { ...d, appointments: queue };
      }),
    );
    return next;
  });
}

/**
 * "Examination reorder (side panel): Optimistic. On failure: notice 'Examination couldn't be reordered / Please try
 * again', a 500 ms wiggle, then revert." Resolves true when the server took the new order.
 */
export async function reorderAppointmentExaminations(
  ctx: LaneCommandContext,
  appointmentId: string,
  from: number,
  to: number,
): Promise<boolean> {
  const before = findAppointment(ctx, appointmentId);
  if (!before) return false;
  const ids = reorderExaminations(
    before.examinations.map((e) => e.id),
    from,
    to,
  );
  if (!ids) return false;
  const byId = new Map(before.examinations.map((e) => [e.id, e]));
  putAppointment(ctx, { ...before, examinations: ids.map((id) => byId.get(id)!) });
  try {
    const answer = await ctx.api.call("appointment.reorderExaminations", {
      query: { id: appointmentId },
      body: { newExaminationsIds: ids },
    });
    putAppointment(ctx, answer);
    return true;
  } catch {
    ctx.notify(REORDER_FAILED_NOTICE);
    ctx.wiggling.add(appointmentId);
    ctx.changed();
    ctx.clock.setTimeout(() => {
      ctx.wiggling.delete(appointmentId);
      const current = findAppointment(ctx, appointmentId);
      putAppointment(ctx, current ? { ...current, examinations: before.examinations } : before);
      ctx.changed();
    }, REORDER_WIGGLE_MS);
    return false;
  }
}
