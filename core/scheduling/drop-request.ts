import type { Card, Lane } from "./lane.ts";
import type { DropPlan } from "./drop-plan.ts";
import type { DragAndDropAppointmentBody, DragAndDropPerimetryBody } from "../model/contract/devices.ts";

// The bodies of the two drag calls (scheduling seed §7 "Devices"), as the contract types them: lanes carry the new
// order; measurement lanes also carry the device revision the client last saw, so the server can answer 409
// device_revision_conflict when stale.

type Moved<C extends Card> = Extract<DropPlan<C>, { outcome: "moved" }>;

const ids = (lane: Lane): string[] => lane.items.map((c) => c.id);

/** "The new order is sent with the device revisions": the optimistic orders with the revisions seen before the move. */
export function measurementDropRequest<C extends Card>(plan: Moved<C>): DragAndDropPerimetryBody {
  return {
    movedPerimetryId: plan.movedId,
    from: { deviceId: plan.after.from.deviceId, perimetriesIds: ids(plan.after.from), revision: plan.before.from.revision ?? 0 },
    to: { deviceId: plan.after.to.deviceId, perimetriesIds: ids(plan.after.to), revision: plan.before.to.revision ?? 0 },
  };
}

export function appointmentDropRequest<C extends Card>(plan: Moved<C>): DragAndDropAppointmentBody {
  return {
    movedAppointmentId: plan.movedId,
    from: { deviceId: plan.after.from.deviceId, appointmentsIds: ids(plan.after.from) },
    to: { deviceId: plan.after.to.deviceId, appointmentsIds: ids(plan.after.to) },
  };
}
