import { liveEvent, type LiveDataOf, type LiveEvent, type LiveOperationOf } from "../../../core/model/live.ts";
import type { Queryable } from "../db/database.ts";
import type { ServerContext } from "../context.ts";
import { bumpRevision, deviceBySnAnywhere, deviceChange } from "../store/devices.ts";
import { isUniqueViolation } from "../db/faults.ts";
import { Failure } from "../http/failure.ts";

// A write: one transaction, then (only after the commit is durable) its consequences: live events to the
// organisation's browsers, and fresh queues / stand-alone settings to the headsets whose lanes changed.
// Every lane that changed gets its revision bumped once, inside the same transaction, and a device update event.
// A write that a unique constraint refused (another writer was first) runs again from the start.

export interface Effects {
  /** A live event for the organisation's browsers, sent once the write is committed; data typed by type and operation. */
  event<T extends LiveEvent["type"], O extends LiveOperationOf<T>>(
    organisationId: string,
    type: T,
    operation: O,
    data: LiveDataOf<T, O>,
    deviceSn?: string | null,
  ): void;
  /** The device's lane (queue) changed: revision + 1, the headset gets its new queue, browsers the device. */
  laneChanged(deviceSn: string | null | undefined): void;
  standaloneChanged(deviceSn: string): void;
}

/** Attempts of a write that hit a unique constraint (a concurrent writer got there first): the next attempt reads what
 * that writer committed and answers as if the two had come one after the other (409, already_invited, the same upload). */
const ATTEMPTS = 3;

export const write = async <T>(ctx: ServerContext, work: (tx: Queryable, fx: Effects) => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(ctx, work);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      if (attempt >= ATTEMPTS) throw new Failure("conflict", "Another change to the same data came at the same time; try again");
    }
  }
};

const writeOnce = async <T>(ctx: ServerContext, work: (tx: Queryable, fx: Effects) => Promise<T>): Promise<T> => {
  const events: Array<() => void> = [];
  const lanes = new Set<string>();
  const standalone = new Set<string>();
  const fx: Effects = {
    event: (org, ...parts) => events.push(() => ctx.live.publish(org, liveEvent(...parts))),
    laneChanged: (sn) => {
      if (sn) lanes.add(sn);
    },
    standaloneChanged: (sn) => standalone.add(sn),
  };
  const value = await ctx.db.transaction(async (tx) => {
    const v = await work(tx, fx);
    for (const sn of lanes) {
      await bumpRevision(tx, sn);
      const row = await deviceBySnAnywhere(tx, sn);
      if (row) fx.event(row.organisationId, "device", "update", deviceChange(ctx.presence.overlay(row)), sn);
    }
    return v;
  });
  for (const e of events) e();
  for (const sn of lanes) void ctx.devices.pushQueue(sn);
  for (const sn of standalone) void ctx.devices.pushStandalone(sn);
  return value;
};

export const nowIso = (ctx: ServerContext) => new Date(ctx.now()).toISOString();
