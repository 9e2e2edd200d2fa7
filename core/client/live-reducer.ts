import { LiveEventType as T, LiveOperation as Op, TestType, type ConnectionStatus, type DeviceStatus } from "../model/enums.ts";
import type { LiveEvent, LiveEventOf } from "../model/live.ts";
import type { ClickerDisconnectedData, DeviceChangeData, LaneMoveData } from "../model/live-data.ts";
import type { Appointment } from "../model/appointment.ts";
import type { Device } from "../model/device.ts";
import type { Examination } from "../model/examination.ts";
import type { Patient } from "../model/patient.ts";
import type { RunningTest } from "../model/running-test.ts";
import type { Notice, NoticeAction } from "../scheduling/notice.ts";
import { CacheKey, type ExaminationParams } from "./cache-keys.ts";
import { entriesOf, hasKey, mapData, type CacheSnapshot } from "./cache-snapshot.ts";
import { addItem, removeItem, replaceItem } from "./list-ops.ts";

// The live-event reducer (scheduling seed §4 "Live events", accounts seed §4 "Real-time events"): a pure function from
// the cache snapshot and one event to the next snapshot plus the effects the client carries out (refetch, notice,
// navigation, device tracking). Events come decoded by their type and operation (core/model/live.ts), so each
// operation's data is typed here.

export type LiveEffect =
  | { readonly kind: "refetch"; readonly key: CacheKey }
  | { readonly kind: "notice"; readonly notice: Notice }
  | { readonly kind: "navigate"; readonly to: "home" }
  | { readonly kind: "device-status"; readonly deviceSn: string; readonly status: DeviceStatus }
  | { readonly kind: "connection"; readonly deviceSn: string; readonly connection: ConnectionStatus }
  | { readonly kind: "progress"; readonly deviceSn: string; readonly progress: RunningTest }
  | { readonly kind: "clicker-disconnected"; readonly stopped: ClickerDisconnectedData };

export interface LiveContext {
  /** The patient whose pages are open, if any ("A trashed patient being viewed sends the user home"). */
  readonly viewedPatientId: string | null;
  /** Lanes this client's own drags moved, by device id (lane-commands.ts). Their events (the lanes' device updates,
   * transfers, the drag event) are of a move the client has already applied: they cost no refetch while the cache
   * shows the lane as the drag left it. */
  readonly ownLaneRevisions?: ReadonlyMap<string, OwnLane>;
}

/** A lane as this client's drag left it: the revision the drag awaits (then was answered with) and its cards' ids. */
export interface OwnLane {
  readonly revision: number;
  readonly field: "perimetries" | "appointments";
  readonly ids: readonly string[];
}

export interface LiveOutcome {
  readonly snapshot: CacheSnapshot;
  readonly effects: readonly LiveEffect[];
}

/** "Measurement result ready: ... shows a success notice 'measurement ready' for 10 s with an action to open the
 * patient's result." The action says which test the result is of and whether it is an examination's, so it opens the
 * page that shows it (resultRoute): an Amsler examination's id is no perimetry page's. */
export const measurementReadyNotice = (
  patientId: string,
  measurementId: string,
  of: { readonly testType: TestType; readonly examination: boolean } = { testType: TestType.Perimetry, examination: false },
  where: { readonly deviceSn: string | null; readonly testName: string | null } = { deviceSn: null, testName: null },
): Notice => ({
  kind: "success",
  title: "measurement ready",
  durationMs: 10_000,
  action: { kind: "open-result", label: "Open result", patientId, measurementId, testType: of.testType, examination: of.examination },
  subject: { patientId, deviceSn: where.deviceSn, testName: where.testName, testType: of.testType },
});

/**
 * The route (accounts and scheduling seeds' route tables) that shows the result an open-result action names:
 * perimetry, a measurement's or an examination's: patient/{patientId}/perimetry/{perimetryId} with
 * ?scrollToMeasurement=1 ("scrolls to the selected measurement"); Amsler: patient/{patientId}/amsler-grid; acuity and
 * colour vision have no result route in the tables, so the patient's overview. Null for another kind of action.
 */
export function resultRoute(action: NoticeAction): string | null {
  if (action.kind !== "open-result" || action.patientId === undefined) return null;
  return testResultRoute(action.patientId, action.testType ?? TestType.Perimetry, action.measurementId);
}

/** The page that shows a test's result, by test type (see resultRoute); home's recent tests link the same way. */
export function testResultRoute(patientId: string, testType: TestType, testId: string | undefined): string {
  const patient = `/patient/${encodeURIComponent(patientId)}`;
  switch (testType) {
    case TestType.Perimetry:
      return testId === undefined ? `${patient}/perimetry/all` : `${patient}/perimetry/${encodeURIComponent(testId)}?scrollToMeasurement=1`;
    case TestType.Amsler:
      return `${patient}/amsler-grid`;
    default:
      return `${patient}/overview`;
  }
}

export function reduceLiveEvent(snapshot: CacheSnapshot, event: LiveEvent, context: LiveContext): LiveOutcome {
  switch (event.operation) {
    // Progress carries the running test whatever the event type.
    case Op.MeasurementProgress:
    case Op.ExaminationProgress: {
      const { deviceSn, ...progress } = event.data;
      return { snapshot, effects: [{ kind: "progress", deviceSn, progress }] };
    }
    // "Clicker disconnected | test stopped message" (§8): the view says so; the status stopped comes as its own event.
    case Op.ClickerDisconnected:
      return { snapshot, effects: [{ kind: "clicker-disconnected", stopped: event.data }] };
    // "Device transfer in or out refetches devices", unless it is this client's own drag, applied already.
    case Op.DeviceTransferIn:
    case Op.DeviceTransferOut:
      return { snapshot, effects: ownDragOf(snapshot, event.data.deviceSn, context) ? [] : [{ kind: "refetch", key: CacheKey.Devices }] };
  }
  switch (event.type) {
    case T.Device:
      return deviceEvent(snapshot, event, context);
    case T.Patient:
      return patientEvent(snapshot, event, context);
    case T.Measurement:
      return measurementEvent(snapshot, event);
    case T.Examination:
      return examinationEvent(snapshot, event);
    case T.Appointment:
      return appointmentEvent(snapshot, event);
    case T.Reorder:
      return { snapshot: replaceAppointment(snapshot, event.data), effects: [] };
    case T.DragAndDrop:
      return dragAndDropEvent(snapshot, event.data, context);
    case T.Connection: {
      const { deviceSn, connection } = event.data;
      return {
        snapshot: patchDevice(snapshot, deviceSn, (d) => (d.connection === connection ? d : { ...d, connection })),
        effects: [{ kind: "connection", deviceSn, connection }],
      };
    }
  }
}

/** The events of one type that patch lists (progress, clicker and transfer events are handled before). */
type ListEvent<K extends LiveEvent["type"]> = Exclude<
  LiveEventOf<K>,
  {
    operation:
      | typeof Op.MeasurementProgress
      | typeof Op.ExaminationProgress
      | typeof Op.ClickerDisconnected
      | typeof Op.DeviceTransferIn
      | typeof Op.DeviceTransferOut;
  }
>;

const refetchIfCached = (s: CacheSnapshot, key: CacheKey): LiveEffect[] => (hasKey(s, key) ? [{ kind: "refetch", key }] : []);

const cachedDevices = (s: CacheSnapshot): readonly Device[] => entriesOf(s, CacheKey.Devices).flatMap((e) => e.data ?? []);

/** The device's lane as this client's own drag left it, if the cache still shows it so (a read that landed meanwhile
 * with other lists is not the drag's). */
const ownLane = (device: Device | undefined, context: LiveContext): OwnLane | undefined => {
  const own = device === undefined ? undefined : context.ownLaneRevisions?.get(device.id);
  if (device === undefined || own === undefined) return undefined;
  const ids = (device[own.field] ?? []).map((c) => c.id);
  return ids.length === own.ids.length && ids.every((id, i) => id === own.ids[i]) ? own : undefined;
};

/** A transfer of this client's own drag: the lane shows that drag's lists and nothing newer is known of it. */
const ownDragOf = (s: CacheSnapshot, deviceSn: string, context: LiveContext): boolean => {
  const device = cachedDevices(s).find((d) => d.deviceSn === deviceSn);
  const own = ownLane(device, context);
  return own !== undefined && own.revision >= (device?.revision ?? 0);
};

// ---- devices ---------------------------------------------------------------------------------------------------------

const patchDevices = (s: CacheSnapshot, update: (devices: readonly Device[]) => readonly Device[]) =>
  mapData(s, CacheKey.Devices, (devices) => update(devices));

/** Every field of the change already has this value on the device (battery and the like compared by content). */
const repeats = (device: Device, fields: Omit<DeviceChangeData, "deviceSn" | "revision">): boolean =>
  Object.entries(fields).every(([key, value]) => {
    const current = (device as unknown as Record<string, unknown>)[key];
    return current === value || (typeof value === "object" && value !== null && JSON.stringify(current) === JSON.stringify(value));
  });

const patchDevice = (s: CacheSnapshot, deviceSn: string, update: (d: Device) => Device) =>
  patchDevices(s, (devices) => {
    let changed = false;
    const next = devices.map((d) => {
      if (d.deviceSn !== deviceSn) return d;
      const u = update(d);
      changed ||= u !== d;
      return u;
    });
    return changed ? next : devices;
  });

/** Applies `update` to each device's queue; devices whose queue comes back identical keep their identity. */
const patchLanes = <K extends "perimetries" | "appointments">(
  s: CacheSnapshot,
  field: K,
  update: (queue: NonNullable<Device[K]>, device: Device) => NonNullable<Device[K]>,
) =>
  patchDevices(s, (devices) => {
    let changed = false;
    const next = devices.map((d) => {
      const queue = d[field];
      if (queue === undefined) return d;
      const u = update(queue as NonNullable<Device[K]>, d);
      if (u === queue) return d;
      changed = true;
      return { ...d, [field]: u };
    });
    return changed ? next : devices;
  });

function deviceEvent(s: CacheSnapshot, event: ListEvent<typeof T.Device>, context: LiveContext): LiveOutcome {
  switch (event.operation) {
    case Op.Insert:
    case Op.Restore:
      return { snapshot: patchDevices(s, (list) => addItem(list, event.data)), effects: [] };
    case Op.Update: {
      const { deviceSn, revision, ...fields } = event.data;
      const effects: LiveEffect[] = [];
      // "A status event from the live socket sets the device's status"
      if (fields.status !== undefined) effects.push({ kind: "device-status", deviceSn, status: fields.status });
      if (fields.connection !== undefined) effects.push({ kind: "connection", deviceSn, connection: fields.connection });
      // The change carries the server's revision but not the queue: a revision other than the cached one means the
      // lanes changed; refetch them instead of pairing a fresh revision with a stale queue (a drop would then pass
      // the server's conflict check with lists from before the other change). The revision this client's own drag
      // awaits is of lists it already shows: its answer sets the revision.
      const cached = cachedDevices(s).find((d) => d.deviceSn === deviceSn);
      if (revision !== undefined && cached !== undefined && cached.revision !== revision && ownLane(cached, context)?.revision !== revision)
        effects.push(...refetchIfCached(s, CacheKey.Devices));
      // A change that repeats what the device shows keeps the device object, so nothing that reads it re-renders.
      return { snapshot: patchDevice(s, deviceSn, (d) => (repeats(d, fields) ? d : { ...d, ...fields })), effects };
    }
    case Op.Trash:
    case Op.Delete:
      return { snapshot: patchDevices(s, (list) => removeItem(list, event.data.id)), effects: [] };
  }
}

/** Our own drag set or awaits these revisions: nothing to do. Anyone else's drag: the order is unknown here, refetch. */
function dragAndDropEvent(s: CacheSnapshot, move: LaneMoveData, context: LiveContext): LiveOutcome {
  const devices = cachedDevices(s);
  const known = (side: { deviceId: string; revision: number }) =>
    devices.some((d) => d.id === side.deviceId && (d.revision === side.revision || ownLane(d, context)?.revision === side.revision));
  return { snapshot: s, effects: known(move.from) && known(move.to) ? [] : refetchIfCached(s, CacheKey.Devices) };
}

// ---- patients --------------------------------------------------------------------------------------------------------

function patientEvent(s: CacheSnapshot, event: ListEvent<typeof T.Patient>, context: LiveContext): LiveOutcome {
  const op = event.operation;
  switch (event.operation) {
    case Op.Insert:
    case Op.Restore: {
      const patient = event.data;
      let next = mapData(s, CacheKey.Patients, (d) =>
        Array.isArray(d) ? addItem(d as readonly Patient[], patient) : replaceOne(d as Patient, patient),
      );
      next = mapData(next, CacheKey.TrashedPatients, (list) => removeItem(list, patient.id));
      // Search results depend on the server's matching: ask again rather than guess.
      return { snapshot: next, effects: refetchIfCached(next, CacheKey.PatientSearch) };
    }
    case Op.Update: {
      const patient = event.data;
      let next = mapData(s, CacheKey.Patients, (d) =>
        Array.isArray(d) ? replaceItem(d as readonly Patient[], patient) : replaceOne(d as Patient, patient),
      );
      next = mapData(next, CacheKey.PatientSearch, (page) => {
        const entries = replaceItem(page.entries, patient);
        return entries === page.entries ? page : { ...page, entries };
      });
      next = mapData(next, CacheKey.TrashedPatients, (list) => replaceItem(list, patient));
      return { snapshot: next, effects: [] };
    }
    case Op.Trash:
    case Op.Delete: {
      const { id } = event.data;
      let next = mapData(s, CacheKey.Patients, (d) => (Array.isArray(d) ? removeItem(d as readonly Patient[], id) : d));
      next = mapData(next, CacheKey.PatientSearch, (page) => {
        const entries = removeItem(page.entries, id);
        return entries === page.entries ? page : { ...page, entries };
      });
      const effects: LiveEffect[] = [];
      if (op === Op.Delete) next = mapData(next, CacheKey.TrashedPatients, (list) => removeItem(list, id));
      else effects.push(...refetchIfCached(next, CacheKey.TrashedPatients));
      // "A trashed patient being viewed sends the user home."
      if (context.viewedPatientId === id) effects.push({ kind: "navigate", to: "home" });
      return { snapshot: next, effects };
    }
  }
}

const replaceOne = <T extends { id: string }>(current: T, item: T): T => (current.id === item.id ? item : current);

// ---- measurements ----------------------------------------------------------------------------------------------------

function measurementEvent(s: CacheSnapshot, event: ListEvent<typeof T.Measurement>): LiveOutcome {
  const op = event.operation;
  switch (event.operation) {
    case Op.Insert:
    case Op.Restore: {
      const m = event.data;
      let next = mapData(s, CacheKey.Measurements, (list, p) => (p.patientId === m.patientId ? addItem(list, m) : list));
      next = mapData(next, CacheKey.TrashedMeasurements, (list) => removeItem(list, m.id));
      // A queued measurement (no result yet) joins its device's lane at the end.
      if (m.deviceSn !== null && m.result === null)
        next = patchLanes(next, "perimetries", (queue, d) => (d.deviceSn === m.deviceSn ? addItem(queue, m) : queue));
      return { snapshot: next, effects: [] };
    }
    case Op.Update: {
      const m = event.data;
      let next = mapData(s, CacheKey.Measurements, (list) => replaceItem(list, m));
      next = mapData(next, CacheKey.TrashedMeasurements, (list) => replaceItem(list, m));
      next = patchLanes(next, "perimetries", (queue) => replaceItem(queue, m));
      return { snapshot: next, effects: [] };
    }
    case Op.Trash:
    case Op.Delete: {
      const { id } = event.data;
      let next = mapData(s, CacheKey.Measurements, (list) => removeItem(list, id));
      next = patchLanes(next, "perimetries", (queue) => removeItem(queue, id));
      if (op === Op.Delete) return { snapshot: mapData(next, CacheKey.TrashedMeasurements, (list) => removeItem(list, id)), effects: [] };
      return { snapshot: next, effects: refetchIfCached(next, CacheKey.TrashedMeasurements) };
    }
    case Op.MeasurementResultReady: {
      // "removes the card from the device list and shows a success notice 'measurement ready' for 10 s"; the patient's
      // list gets the result ("replaces or adds the result", accounts seed §4).
      const m = event.data;
      let next = patchLanes(s, "perimetries", (queue) => removeItem(queue, m.id));
      next = mapData(next, CacheKey.Measurements, (list, p) => (p.patientId === m.patientId ? addItem(list, m) : list));
      return {
        snapshot: next,
        effects: [
          {
            kind: "notice",
            notice: measurementReadyNotice(m.patientId, m.id, undefined, { deviceSn: m.deviceSn, testName: m.displayName }),
          },
        ],
      };
    }
  }
}

// ---- examinations and appointments ("Appointment and examination events are handled alike") ------------------------

const matchesExaminationFilter = (e: Examination, p: ExaminationParams): boolean =>
  (p.patientId === undefined || p.patientId === e.patientId) &&
  (p.taken === undefined || p.taken === e.taken) &&
  (p.examinationType === undefined || p.examinationType === e.type);

/** Rewrites the examinations inside cached appointments (the appointments list, the bin and the device lanes). */
function patchAppointmentExaminations(s: CacheSnapshot, update: (list: readonly Examination[], a: Appointment) => readonly Examination[]) {
  const inAppointment = (a: Appointment): Appointment => {
    const examinations = update(a.examinations, a);
    return examinations === a.examinations ? a : { ...a, examinations };
  };
  const inList = (list: readonly Appointment[]) => {
    let changed = false;
    const next = list.map((a) => {
      const u = inAppointment(a);
      changed ||= u !== a;
      return u;
    });
    return changed ? next : list;
  };
  let next = mapData(s, CacheKey.Appointments, inList);
  next = mapData(next, CacheKey.TrashedAppointments, inList);
  return patchLanes(next, "appointments", (queue) => inList(queue));
}

function examinationEvent(s: CacheSnapshot, event: ListEvent<typeof T.Examination>): LiveOutcome {
  const op = event.operation;
  switch (event.operation) {
    case Op.Insert:
    case Op.Restore:
    case Op.Update:
    case Op.MeasurementResultReady: {
      const e = event.data;
      const adds = op !== Op.Update;
      const put = <L extends readonly Examination[]>(list: L, belongs: boolean) =>
        adds && belongs ? addItem(list, e) : replaceItem(list, e);
      let next = mapData(s, CacheKey.Examinations, (list, p) => put(list, matchesExaminationFilter(e, p)));
      next = mapData(next, CacheKey.AmslerGrid, (list, p) => put(list, e.type === "amsler" && e.patientId === p.patientId));
      next = patchAppointmentExaminations(next, (list, a) => put(list, a.id === e.appointmentId));
      const effects: LiveEffect[] =
        op === Op.MeasurementResultReady
          ? [
              {
                kind: "notice",
                notice: measurementReadyNotice(
                  e.patientId,
                  e.id,
                  { testType: e.type, examination: true },
                  { deviceSn: e.deviceSn, testName: null },
                ),
              },
            ]
          : [];
      return { snapshot: next, effects };
    }
    case Op.Trash:
    case Op.Delete: {
      const { id } = event.data;
      let next = mapData(s, CacheKey.Examinations, (list) => removeItem(list, id));
      next = mapData(next, CacheKey.AmslerGrid, (list) => removeItem(list, id));
      next = patchAppointmentExaminations(next, (list) => removeItem(list, id));
      return { snapshot: next, effects: [] };
    }
  }
}

const dropAppointment = <L extends readonly Examination[]>(list: L, appointmentId: string): L =>
  list.some((e) => e.appointmentId === appointmentId) ? (list.filter((e) => e.appointmentId !== appointmentId) as unknown as L) : list;

function replaceAppointment(s: CacheSnapshot, a: Appointment): CacheSnapshot {
  let next = mapData(s, CacheKey.Appointments, (list) => replaceItem(list, a));
  next = mapData(next, CacheKey.TrashedAppointments, (list) => replaceItem(list, a));
  return patchLanes(next, "appointments", (queue) => replaceItem(queue, a));
}

function appointmentEvent(s: CacheSnapshot, event: ListEvent<typeof T.Appointment>): LiveOutcome {
  const op = event.operation;
  switch (event.operation) {
    case Op.Insert:
    case Op.Restore: {
      const a = event.data;
      let next = mapData(s, CacheKey.Appointments, (list) => addItem(list, a));
      next = mapData(next, CacheKey.TrashedAppointments, (list) => removeItem(list, a.id));
      if (a.deviceSn !== null)
        next = patchLanes(next, "appointments", (queue, d) => (d.deviceSn === a.deviceSn ? addItem(queue, a) : queue));
      // A restored appointment's taken examinations return to the patient's results (the event carries only the queue's part).
      return { snapshot: next, effects: op === Op.Restore ? refetchIfCached(next, CacheKey.Examinations) : [] };
    }
    case Op.Update:
      return { snapshot: replaceAppointment(s, event.data), effects: [] };
    case Op.Trash:
    case Op.Delete: {
      const { id } = event.data;
      let next = mapData(s, CacheKey.Appointments, (list) => removeItem(list, id));
      next = patchLanes(next, "appointments", (queue) => removeItem(queue, id));
      // Its examinations go with it (the server lists no examination of a trashed appointment).
      next = mapData(next, CacheKey.Examinations, (list) => dropAppointment(list, id));
      next = mapData(next, CacheKey.AmslerGrid, (list) => dropAppointment(list, id));
      if (op === Op.Delete) return { snapshot: mapData(next, CacheKey.TrashedAppointments, (list) => removeItem(list, id)), effects: [] };
      return { snapshot: next, effects: refetchIfCached(next, CacheKey.TrashedAppointments) };
    }
  }
}
