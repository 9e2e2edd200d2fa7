import type { createStore } from "jotai";
import { deviceView, measurementLane } from "../../core/client/device-view.ts";
import { isApiError } from "../../core/model/contract/index.ts";
import type { Device } from "../../core/model/device.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Api } from "../../core/ports.ts";
import { planDrop, type Drop, type DropPlan } from "../../core/scheduling/drop-plan.ts";
import { measurementDropRequest } from "../../core/scheduling/drop-request.ts";
import type { Lane } from "../../core/scheduling/lane.ts";
import type { Notice } from "../../core/scheduling/notice.ts";
import { devicesAtom, flashingLanesAtom, trackerAtom } from "./devices.ts";

// Dragging measurement cards (scheduling seed §4 "Drag and drop of measurements"): plan with core/scheduling, apply
// the optimistic order, send it with the revisions, then keep the answer's revisions, refetch on a conflict, or flash
// the lanes 500 ms and refetch on any other failure.

type Store = ReturnType<typeof createStore>;

/** "error flash and wiggle 500 ms" (scheduling seed §9). */
export const ERROR_FLASH_MS = 500;

/** The measurement lanes as the planner sees them, with the running flag from the live device state. */
export function measurementLanes(store: Store): Lane<Measurement>[] {
  const tracker = store.get(trackerAtom);
  return store.get(devicesAtom).devices.map((d) => measurementLane(deviceView(d, tracker?.get(d.deviceSn), "measurements")));
}

const withLane = (devices: readonly Device[], lane: Lane<Measurement>, revision?: number): Device[] =>
  devices.map((d) => (d.id === lane.deviceId ? { ...d, perimetries: [...lane.items], revision: revision ?? d.revision } : d));

/** "On conflict (HTTP 409 or error type device_revision_conflict) devices are refetched." */
export const isRevisionConflict = (error: unknown): boolean =>
  isApiError(error) && (error.status === 409 || error.responseType === "device_revision_conflict");

export type DropResult =
  | { readonly outcome: "ignored" }
  | { readonly outcome: "refused"; readonly notice: Notice }
  | { readonly outcome: "saved" }
  | { readonly outcome: "conflict" }
  | { readonly outcome: "failed" };

export interface DropDeps {
  readonly store: Store;
  readonly api: Api;
  readonly refetch: () => Promise<void>;
  readonly wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function dropMeasurement(deps: DropDeps, drop: Drop): Promise<DropResult> {
  const { store, api } = deps;
  const plan: DropPlan<Measurement> = planDrop(measurementLanes(store), drop);
  if (plan.outcome === "ignored") return { outcome: "ignored" };
  if (plan.outcome === "refused") return { outcome: "refused", notice: plan.notice };

  // Optimistic: the lanes show the new order at once.
  const state = store.get(devicesAtom);
  let devices = withLane(state.devices, plan.after.from);
  devices = withLane(devices, plan.after.to);
  store.set(devicesAtom, { status: "success", devices });

  try {
    const answer = await api.call("device.dragAndDropPerimetry", { body: measurementDropRequest(plan) });
    // Keep the new revisions so our next drag is not refused and the echoed live event is recognised as ours.
    const current = store.get(devicesAtom).devices.map((d) =>
      d.id === answer.from.deviceId ? { ...d, revision: answer.from.revision } : d.id === answer.to.deviceId ? { ...d, revision: answer.to.revision } : d,
    );
    store.set(devicesAtom, { status: "success", devices: current });
    return { outcome: "saved" };
  } catch (error) {
    if (isRevisionConflict(error)) {
      await deps.refetch();
      return { outcome: "conflict" };
    }
    const ids = new Set([plan.after.from.deviceId, plan.after.to.deviceId]);
    store.set(flashingLanesAtom, (s) => new Set([...s, ...ids]));
    await (deps.wait ?? sleep)(ERROR_FLASH_MS);
    store.set(flashingLanesAtom, (s) => new Set([...s].filter((id) => !ids.has(id))));
    await deps.refetch();
    return { outcome: "failed" };
  }
}
