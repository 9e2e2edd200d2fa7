import type { Api } from "../ports.ts";
import type { Notice } from "../scheduling/notice.ts";
import { CacheKey } from "./cache-keys.ts";

// Trash, restore and delete-for-good of patients, measurements, appointments and examinations (scheduling seed §4
// "Lifecycle", §8 error catalogue; accounts seed §4). The live events patch the caches; these add the notices and
// refetches the seeds ask of the acting client.

export type LifecycleItem = "patient" | "measurement" | "appointment" | "examination";
export type LifecycleAction = "trash" | "restore" | "delete";

const endpoints = {
  patient: { trash: "patient.trash", restore: "patient.restore", delete: "patient.delete" },
  measurement: { trash: "perimetry.trash", restore: "perimetry.restore", delete: "perimetry.delete" },
  appointment: { trash: "appointment.trash", restore: "appointment.restore", delete: "appointment.delete" },
  examination: { trash: "examination.trash", restore: undefined, delete: "examination.delete" },
} as const;

/** "Restoring refetches": the lists the restored item returns to, and the bin it leaves. */
const restoreRefetches: Record<LifecycleItem, readonly CacheKey[]> = {
  patient: [CacheKey.Patients, CacheKey.TrashedPatients, CacheKey.PatientSearch],
  measurement: [CacheKey.Measurements, CacheKey.TrashedMeasurements, CacheKey.Devices],
  appointment: [CacheKey.Appointments, CacheKey.TrashedAppointments, CacheKey.Devices],
  examination: [CacheKey.Examinations, CacheKey.Appointments],
};

/** "Deleting for good" from the bin: the bin list it leaves. */
const deleteRefetches: Record<LifecycleItem, readonly CacheKey[]> = {
  patient: [CacheKey.TrashedPatients],
  measurement: [CacheKey.TrashedMeasurements],
  appointment: [CacheKey.TrashedAppointments],
  examination: [],
};

const error = (title: string, hint?: string): Notice => ({ kind: "error", title, hint, durationMs: 5_000 });
const success = (title: string, action?: Notice["action"]): Notice => ({ kind: "success", title, durationMs: 5_000, action });

/** The notice after a successful action. */
export function lifecycleSuccessNotice(item: LifecycleItem, action: LifecycleAction, id: string): Notice | undefined {
  if (action === "restore") return success(`${capital(item)} restored`, { kind: "open-item", label: "Open", itemId: id });
  if (action === "trash") {
    // "trashing an appointment notifies 'Appointment trashed' with an action to view it"
    // (a trashed appointment is seen in the bin's deleted-appointments tab)
    if (item === "appointment")
      return success("Appointment trashed", { kind: "open-item", label: "View", itemId: id, bin: "deleted-appointments" });
    // "Trashing a measurement notifies with a link to the bin"; "Trashing a patient ... notifies with a link to the bin"
    if (item === "measurement" || item === "patient")
      return success(`${capital(item)} trashed`, { kind: "open-bin", label: "Open bin", bin: `deleted-${item}s` });
  }
  // "Examination deleted" (success notice)
  if (item === "examination") return success("Examination deleted");
  return undefined;
}

/** The notice after a failed action (scheduling seed §8, accounts seed §8). */
export function lifecycleFailureNotice(item: LifecycleItem, action: LifecycleAction): Notice {
  if (item === "measurement" && action !== "restore") return error("There was a problem deleting the measurement.", "Please try again.");
  if (item === "appointment" && action === "trash") return error("Failed to trash appointment");
  if (item === "examination") return error("Examination couldn't be deleted", "Please try again");
  if (item === "patient" && action !== "restore") return error("There was a problem deleting the patient, try again later");
  return error("Something went wrong. Try again or refresh the browser.");
}

export interface LifecycleContext {
  readonly api: Api;
  notify(notice: Notice): void;
  refetch(key: CacheKey): Promise<void>;
  /** "Trashing a patient from the profile goes home". */
  goHome(): void;
}

export interface LifecycleOptions {
  /** False: the caller tells the user itself, in its own words (the bin's rows name the item and offer to open it);
   * the refetches and navigation are the same. Default true. */
  readonly notices?: boolean;
}

/** Runs the action; resolves true on success. Failures notify and resolve false (never throw to the view). */
export async function runLifecycle(
  ctx: LifecycleContext,
  item: LifecycleItem,
  action: LifecycleAction,
  id: string,
  options: LifecycleOptions = {},
): Promise<boolean> {
  const notices = options.notices ?? true;
  const endpoint = endpoints[item][action];
  if (endpoint === undefined) return false;
  try {
    await ctx.api.call(endpoint, { query: { id } } as never);
  } catch {
    if (notices) ctx.notify(lifecycleFailureNotice(item, action));
    return false;
  }
  if (action === "restore") await Promise.all(restoreRefetches[item].map((k) => ctx.refetch(k)));
  if (action === "delete") await Promise.all(deleteRefetches[item].map((k) => ctx.refetch(k)));
  if (item === "patient" && action === "trash") ctx.goHome();
  const notice = notices ? lifecycleSuccessNotice(item, action, id) : undefined;
  if (notice) ctx.notify(notice);
  return true;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
