import type { LiveEventType, LiveOperation } from "../../../core/model/enums.ts";
import type { Queryable } from "../db/database.ts";
import type { ServerContext } from "../context.ts";
import { bumpRevision, deviceBySnAnywhere, deviceChange } from "../store/devices.ts";

// A write: one transaction, then (only after the commit is durable) its consequences: live events to the
// organisation's browsers, and fresh queues / stand-alone settings to the headsets whose lanes changed.
// Every lane that changed gets its revision bumped once, inside the same transaction, and a device update event.

export interface Effects {
  event(organisationId: string, type: LiveEventType, operation: LiveOperation, data: unknown, deviceSn?: string | null): void;
  /** The device's lane (queue) changed: revision + 1, the headset gets its new queue, browsers the device. */
  laneChanged(deviceSn: string | null | undefined): void;
  standaloneChanged(deviceSn: string): void;
}

export const write = async <T>(ctx: ServerContext, work: (tx: Queryable, fx: Effects) => Promise<T>): Promise<T> => {
  const events: Array<() => void> = [];
  const lanes = new Set<string>();
  const standalone = new Set<string>();
  const fx: Effects = {
    event: (org, type, operation, data, deviceSn) =>
      events.push(() => ctx.live.publish(org, { type, operation, data, ...(deviceSn ? { deviceSn } : {}) })),
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
      if (row) fx.event(row.organisationId, "device", "update", deviceChange(row), sn);
    }
    return v;
  });
  for (const e of events) e();
  for (const sn of lanes) void ctx.devices.pushQueue(sn);
  for (const sn of standalone) void ctx.devices.pushStandalone(sn);
  return value;
};

export const nowIso = (ctx: ServerContext) => new Date(ctx.now()).toISOString();
