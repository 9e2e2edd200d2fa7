import { ApiError } from "../model/contract/errors.ts";
import mitt, { type Emitter } from "mitt";
import type { WantedStatus } from "../device/status.ts";
import type { Organisation } from "../model/organisation.ts";
import type { Device } from "../model/device.ts";
import { SocketState, type Eye } from "../model/enums.ts";
import { isLiveEvent, type LiveMessage } from "../model/live.ts";
import type { BaselineResultIds } from "../model/local-storage.ts";
import { StorageKeys, type Api, type Clock, type Socket, type Storage } from "../ports.ts";
import type { Drop, DropPlan } from "../scheduling/drop-plan.ts";
import type { Notice } from "../scheduling/notice.ts";
import { orderPinnedFirst } from "../scheduling/pinned-lanes.ts";
import type { Appointment } from "../model/appointment.ts";
import type { Measurement } from "../model/measurement.ts";
import { CacheKey, type DataOf, type ParamsOf, type PatientSearchParams } from "./cache-keys.ts";
import { entriesOf, type CacheEntry, type CacheSnapshot } from "./cache-snapshot.ts";
import { createConnectivity } from "./connectivity.ts";
import { CONFIRM_TEXT, COMMAND_FAILED_NOTICE, type CommandDialog, type StandaloneSwitch } from "./device-commands.ts";
import { createDeviceTracker } from "./device-tracker.ts";
import { appointmentLane, deviceView, measurementLane, type DeviceView, type SchedulingVariant } from "./device-view.ts";
import type { ClientEvents } from "./events.ts";
import { readBaseline, readPinned, readUnreliable, setUnreliable, toggleBaseline, togglePinned } from "./local-marks.ts";
import { moveAppointment, moveMeasurement, reorderAppointmentExaminations, type LaneCommandContext } from "./lane-commands.ts";
import { reduceLiveEvent, type LiveEffect } from "./live-reducer.ts";
import { createQueryCache } from "./query-cache.ts";
import { guardApi } from "./session-expiry.ts";
import { runLifecycle, type LifecycleAction, type LifecycleItem } from "./lifecycle-commands.ts";
import { debounce, PATIENT_SEARCH_DEBOUNCE_MS } from "./search-debounce.ts";
import { readSchedulingV2, writeSchedulingV2 } from "./local-settings.ts";
import { isLoginServerError, LOGIN_FAILED, LOGIN_SERVER_ERROR, loggedOut, type SessionEndDialog, type SessionState } from "./session.ts";

// The headless client: one engine for the web app and the CLI. It speaks to the backend through the ports only,
// keeps the caches, applies live events and the scheduling and device rules, and announces every change through mitt.

export interface ClientPorts {
  readonly api: Api;
  readonly socket: Socket;
  readonly storage: Storage;
  readonly clock: Clock;
}

export interface ClientOptions {
  /** Which technician dashboard: measurement lanes or appointment lanes (the feature flag). Default: stored v2 key. */
  readonly variant?: SchedulingVariant;
}

export interface Client {
  readonly events: Emitter<ClientEvents>;
  /** The Api with session expiry applied: use it for every call the client has no command for. */
  readonly api: Api;

  // session
  readonly session: SessionState;
  /** Resume a stored session: "a missing access token triggers logout"; "The token check runs whenever a token is present." */
  start(): Promise<void>;
  login(username: string, password: string): Promise<boolean>;
  /** "Logout calls the server; local logout happens regardless of outcome." */
  logout(): Promise<void>;
  clearLoginError(): void;
  /** Close the session-ended dialog. */
  dismissSessionDialog(): void;

  // caches
  readonly caches: CacheSnapshot;
  query<K extends CacheKey>(key: K, params: ParamsOf<K>): CacheEntry<K> | undefined;
  fetch<K extends CacheKey>(key: K, params: ParamsOf<K>): Promise<DataOf<K>>;
  refetch(key: CacheKey): Promise<void>;
  fetchNextSearchPage(params: PatientSearchParams): Promise<void>;
  /** The patient whose pages are open; trashing it sends the user home. */
  setViewedPatient(patientId: string | null): void;
  /** Patient search input: fetched 500 ms after the last call ("input debounced 500 ms"). Read it with `query`. */
  searchPatients(params: PatientSearchParams): void;
  /** Trash, restore or delete for good, with the seeds' notices; resolves false (after a notice) on failure. */
  lifecycle(item: LifecycleItem, action: LifecycleAction, id: string): Promise<boolean>;

  // devices and lanes
  readonly variant: SchedulingVariant;
  readonly socketState: SocketState;
  /** Every cached device with its live state, pinned lanes first. */
  devices(): DeviceView[];
  device(deviceSn: string): DeviceView | undefined;
  /** Device ids whose lane flashes an error (500 ms after a failed drag). */
  readonly flashingLanes: ReadonlySet<string>;
  /** Appointment ids that wiggle (500 ms after a failed reorder). */
  readonly wigglingAppointments: ReadonlySet<string>;
  moveMeasurement(drop: Drop): Promise<DropPlan<Measurement>>;
  moveAppointment(drop: Drop): Promise<DropPlan<Appointment>>;
  reorderExaminations(appointmentId: string, from: number, to: number): Promise<boolean>;
  commandDialog(deviceSn: string): CommandDialog | undefined;
  askForStatus(deviceSn: string, wanted: WantedStatus): void;
  cancelCommand(deviceSn: string): void;
  confirmCommand(deviceSn: string): Promise<void>;
  /** Turn stand-alone mode on (a configuration; false while a test runs) or off (null; whenever it is on, taken between
   * runs). Rejects with the ApiError. */
  setStandalone(deviceSn: string, config: StandaloneSwitch): Promise<boolean>;
  /** False when the server refused; the alias error then shows for 1 s (`aliasError`). */
  renameDevice(deviceSn: string, alias: string): Promise<boolean>;
  aliasError(deviceSn: string): boolean;
  /** Appointment variant: a device came without its appointments field ('Appointments field missing in one or more devices.'). */
  appointmentsMissing(): boolean;

  // marks in local storage
  readonly pinned: readonly string[];
  togglePin(deviceSn: string): void;
  readonly baseline: BaselineResultIds;
  toggleBaseline(eye: Eye, measurementId: string): void;
  readonly unreliable: readonly string[];
  setUnreliable(measurementId: string, unreliable: boolean): void;

  // connectivity
  readonly offline: boolean;
  setOnline(online: boolean): void;

  dispose(): void;
}

/** "alias error 1 s" (scheduling seed §9). */
export const ALIAS_ERROR_MS = 1_000;
/** Scheduling seed §8 "Appointments missing". */
export const APPOINTMENTS_MISSING = "Appointments field missing in one or more devices.";

const storedVariant = (storage: Storage): SchedulingVariant => (readSchedulingV2(storage.local) ? "appointments" : "measurements");

export function createClient(ports: ClientPorts, options: ClientOptions = {}): Client {
  const { socket, storage, clock } = ports;
  const events = mitt<ClientEvents>();
  // The multi-tests flag of the organisation chooses the variant; it is kept in the v2 scheduling key (seed: "a v2
  // scheduling key in local storage") so the technician view opens in the right variant before the organisation loads.
  const currentVariant = (): SchedulingVariant => options.variant ?? storedVariant(storage);
  let session: SessionState = loggedOut;
  let viewedPatientId: string | null = null;
  let closingSocket = false;
  const flashing = new Set<string>();
  const wiggling = new Set<string>();
  const ownLaneRevisions = new Map<string, number>();
  const dialogs = new Map<string, CommandDialog>();
  const aliasErrors = new Set<string>();
  const changed = (topic: ClientEvents["change"]) => events.emit("change", topic);
  const notify = (notice: Notice) => events.emit("notice", notice);

  const api = guardApi(ports.api, () => endSession("session-expired"));
  const tracker = createDeviceTracker(clock, () => changed("devices"));
  const cache = createQueryCache(
    api,
    () => changed("cache"),
    (key, data) => {
      if (key === CacheKey.Devices) tracker.seed(data as readonly Device[]);
      if (key === CacheKey.CurrentOrganisation) {
        const multiTests = (data as Organisation).multiTests;
        if (readSchedulingV2(storage.local) !== multiTests) {
          writeSchedulingV2(storage.local, multiTests);
          changed("devices");
        }
      }
    },
  );
  const connectivity = createConnectivity(clock, () => changed("connectivity"));

  const setSession = (next: SessionState) => {
    session = next;
    changed("session");
  };

  // ---- live socket ---------------------------------------------------------------------------------------------------
  const runEffect = (effect: LiveEffect) => {
    switch (effect.kind) {
      case "refetch":
        return void cache.refetch(effect.key);
      case "notice":
        return notify(effect.notice);
      case "navigate":
        return events.emit("navigate", { to: effect.to });
      case "device-status":
        // "The dialog resets when the device status changes." Heartbeats repeat the status: only a change resets it.
        if (tracker.get(effect.deviceSn)?.status !== effect.status && dialogs.delete(effect.deviceSn)) changed("commands");
        return tracker.status(effect.deviceSn, effect.status);
      case "connection":
        return tracker.connection(effect.deviceSn, effect.connection);
      case "progress":
        return tracker.progress(effect.deviceSn, effect.progress);
      case "clicker-disconnected":
        return events.emit("clickerDisconnected", effect.stopped);
    }
  };

  const onMessage = (message: LiveMessage) => {
    if (isLiveEvent(message)) {
      // The effects are the first application's; a replay onto a late response changes the snapshot only.
      let effects: readonly LiveEffect[] | undefined;
      const context = { viewedPatientId, ownLaneRevisions };
      cache.applyEvent((s) => {
        const outcome = reduceLiveEvent(s, message, context);
        effects ??= outcome.effects;
        return outcome.snapshot;
      });
      (effects ?? []).forEach(runEffect);
      return;
    }
    if (message.type === "token_expired" || message.type === "token_verification_error") endSession("session-expired");
    else if (message.type === "another_session_opened") endSession("another-session-opened");
  };

  let lostLive = false;
  const onSocketState = (state: SocketState) => {
    // "An abnormal close ... marks it disconnected" and clears live progress: any close we did not ask for.
    if (state === SocketState.Closed && !closingSocket) {
      lostLive = true;
      tracker.abnormalClose();
    }
    // Events missed while the socket was down are not replayed: read the lanes again once it is back.
    if (state === SocketState.Open && lostLive) {
      lostLive = false;
      void cache.refetch(CacheKey.Devices);
    }
    changed("socket");
  };
  const unsubscribers = [socket.subscribe(onMessage), socket.onState(onSocketState)];

  const openSocket = () => {
    closingSocket = false;
    socket.connect();
  };
  const closeSocket = () => {
    closingSocket = true;
    socket.close();
  };

  // ---- session -------------------------------------------------------------------------------------------------------
  const clearLocal = () => {
    storage.session.remove(StorageKeys.session.accessToken);
    closeSocket();
    cache.clear();
    tracker.clear();
    dialogs.clear();
    ownLaneRevisions.clear();
  };

  function endSession(dialog: SessionEndDialog) {
    if (session.status === "logged-out" && session.dialog === dialog) return;
    clearLocal();
    setSession({ ...loggedOut, dialog });
    events.emit("navigate", { to: "login" });
  }

  async function checkToken() {
    try {
      const claims = await api.call("checkToken", {});
      if (session.status === "logged-in") setSession({ ...session, claims });
    } catch {
      // an expired or invalid token has ended the session through the guarded Api; other failures keep it
    }
  }

  // ---- lanes ---------------------------------------------------------------------------------------------------------
  const cachedDevices = (): readonly Device[] => entriesOf(cache.snapshot, CacheKey.Devices).flatMap((e) => e.data ?? []);
  const views = (): DeviceView[] => cachedDevices().map((d) => deviceView(d, tracker.get(d.deviceSn), currentVariant()));
  const laneContext: LaneCommandContext = {
    api,
    clock,
    cache,
    measurementLanes: () => views().map(measurementLane),
    appointmentLanes: () => views().map(appointmentLane),
    notify,
    flashing,
    wiggling,
    ownLaneRevisions,
    changed: () => changed("lanes"),
  };
  const deviceBySn = (sn: string) => cachedDevices().find((d) => d.deviceSn === sn);
  const search = debounce<PatientSearchParams>(clock, PATIENT_SEARCH_DEBOUNCE_MS, (params) => {
    void cache.fetch(CacheKey.PatientSearch, params).catch(() => undefined);
  });

  return {
    events,
    api,
    get session() {
      return session;
    },
    async start() {
      if (!storage.session.get(StorageKeys.session.accessToken)) {
        if (session.status !== "logged-out") setSession(loggedOut);
        return;
      }
      setSession({ ...loggedOut, status: "logged-in" });
      openSocket();
      await checkToken();
    },
    async login(username, password) {
      setSession({ ...loggedOut, status: "submitting" });
      try {
        const { accessToken } = await api.call("login", { body: { username, password } });
        storage.session.set(StorageKeys.session.accessToken, accessToken);
      } catch (e) {
        storage.session.remove(StorageKeys.session.accessToken);
        const serverSide = isLoginServerError(e instanceof ApiError ? e.status : undefined);
        setSession({ ...loggedOut, loginError: serverSide ? LOGIN_SERVER_ERROR : LOGIN_FAILED });
        return false;
      }
      setSession({ ...loggedOut, status: "logged-in" });
      events.emit("navigate", { to: "home" });
      openSocket();
      void checkToken();
      return true;
    },
    async logout() {
      try {
        await ports.api.call("logout", {});
      } catch {
        // "local logout happens regardless of outcome"
      }
      clearLocal();
      setSession(loggedOut);
      events.emit("navigate", { to: "login" });
    },
    clearLoginError() {
      if (session.loginError !== null) setSession({ ...session, loginError: null });
    },
    dismissSessionDialog() {
      if (session.dialog !== null) setSession({ ...session, dialog: null });
    },

    get caches() {
      return cache.snapshot;
    },
    query: (key, params) => cache.get(key, params),
    fetch: (key, params) => cache.fetch(key, params),
    refetch: (key) => cache.refetch(key),
    fetchNextSearchPage: (params) => cache.fetchNextSearchPage(params),
    setViewedPatient(patientId) {
      viewedPatientId = patientId;
    },
    searchPatients: (params) => search.push(params),
    lifecycle: (item, action, id) =>
      runLifecycle(
        { api, notify, refetch: (key) => cache.refetch(key), goHome: () => events.emit("navigate", { to: "home" }) },
        item,
        action,
        id,
      ),

    get variant() {
      return currentVariant();
    },
    get socketState() {
      return socket.state;
    },
    devices: () => orderPinnedFirst(views(), new Set(readPinned(storage.local)), (v) => v.device.deviceSn),
    device: (sn) => views().find((v) => v.device.deviceSn === sn),
    flashingLanes: flashing,
    wigglingAppointments: wiggling,
    moveMeasurement: (drop) => moveMeasurement(laneContext, drop),
    moveAppointment: (drop) => moveAppointment(laneContext, drop),
    reorderExaminations: (id, from, to) => reorderAppointmentExaminations(laneContext, id, from, to),
    commandDialog: (sn) => dialogs.get(sn),
    askForStatus(sn, wanted) {
      dialogs.set(sn, { phase: "confirm", wanted, text: CONFIRM_TEXT[wanted] });
      changed("commands");
    },
    cancelCommand(sn) {
      if (dialogs.delete(sn)) changed("commands");
    },
    async confirmCommand(sn) {
      const dialog = dialogs.get(sn);
      const device = deviceBySn(sn);
      if (!dialog || !device) return;
      dialogs.set(sn, { phase: "sending", wanted: dialog.wanted, text: "command sent" });
      changed("commands");
      try {
        await api.call("device.update", { query: { id: device.id }, body: { status: dialog.wanted } });
      } catch {
        dialogs.delete(sn);
        changed("commands");
        notify(COMMAND_FAILED_NOTICE);
      }
    },
    async setStandalone(sn, config) {
      // "Stand-alone mode cannot change while another measurement runs": turning it on. Off is sent whenever it is
      // on; the headset honours it between runs.
      const view = views().find((v) => v.device.deviceSn === sn);
      if (!view || (config !== null && view.standaloneToggle.disabled) || (config === null && view.device.standaloneId === null)) return false;
      await api.call("device.standalone", { query: { deviceSn: sn }, body: config });
      return true;
    },
    async renameDevice(sn, alias) {
      const device = deviceBySn(sn);
      // "The device alias form sends only a non-empty alias."
      if (!device || alias.trim() === "") return false;
      try {
        await api.call("device.update", { query: { id: device.id }, body: { alias: alias.trim() } });
        return true;
      } catch {
        // "Alias change failed: error shown for 1 s"
        aliasErrors.add(sn);
        changed("commands");
        clock.setTimeout(() => {
          aliasErrors.delete(sn);
          changed("commands");
        }, ALIAS_ERROR_MS);
        return false;
      }
    },
    aliasError: (sn) => aliasErrors.has(sn),
    appointmentsMissing: () => currentVariant() === "appointments" && cachedDevices().some((d) => d.appointments === undefined),

    get pinned() {
      return readPinned(storage.local);
    },
    togglePin(sn) {
      togglePinned(storage.local, sn);
      changed("marks");
    },
    get baseline() {
      return readBaseline(storage.local);
    },
    toggleBaseline(eye, id) {
      toggleBaseline(storage.local, eye, id);
      changed("marks");
    },
    get unreliable() {
      return readUnreliable(storage.local);
    },
    setUnreliable(id, unreliable) {
      setUnreliable(storage.local, id, unreliable);
      changed("marks");
    },

    get offline() {
      return connectivity.offline;
    },
    setOnline: (online) => connectivity.setOnline(online),

    dispose() {
      unsubscribers.forEach((u) => u());
      closeSocket();
      tracker.dispose();
      connectivity.dispose();
      search.cancel();
      events.all.clear();
    },
  };
}
