import mitt, { type Emitter } from "mitt";
import type { Organisation } from "../model/organisation.ts";
import type { Device } from "../model/device.ts";
import { SocketState } from "../model/enums.ts";
import { isLiveEvent, type LiveMessage } from "../model/live.ts";
import type { Api, Clock, Socket, Storage } from "../ports.ts";
import type { Notice } from "../scheduling/notice.ts";
import { CacheKey, type DataOf, type ParamsOf } from "./cache-keys.ts";
import { entriesOf, type CacheEntry, type CacheSnapshot } from "./cache-snapshot.ts";
import { createConnectivity } from "./connectivity.ts";
import { createDeviceTracker } from "./device-tracker.ts";
import { deviceView, type DeviceView, type SchedulingVariant } from "./device-view.ts";
import { createDevicesFacet, type DevicesFacet } from "./devices-facet.ts";
import { createDicomFacet, type DicomFacet } from "./dicom-facet.ts";
import type { ClientEvents } from "./events.ts";
import type { FacetContext } from "./facet-context.ts";
import { createLanesFacet, type LanesFacet } from "./lanes-facet.ts";
import { runLifecycle, type LifecycleAction, type LifecycleItem, type LifecycleOptions } from "./lifecycle-commands.ts";
import { reduceLiveEvent, type LiveEffect, type OwnLane } from "./live-reducer.ts";
import { readSchedulingV2, writeSchedulingV2 } from "./local-settings.ts";
import { createMarksFacet, type MarksFacet } from "./marks-facet.ts";
import { createPatientsFacet, type PatientsFacet } from "./patients-facet.ts";
import { createQueryCache } from "./query-cache.ts";
import { createReads, type Reads } from "./reads.ts";
import { createResultsFacet, type ResultsFacet } from "./results-facet.ts";
import { guardApi } from "./session-expiry.ts";
import { createSessionFacet, type SessionFacet } from "./session-facet.ts";
import { createTemplatesFacet, type TemplatesFacet } from "./templates-facet.ts";
import { createUsersFacet, type UsersFacet } from "./users-facet.ts";
import { createSignOnFacet, type SignOnFacet } from "./sign-on-facet.ts";

// The headless client: one engine for the web app and the CLI. It speaks to the backend through the ports only,
// keeps the caches, applies live events and the scheduling and device rules, and announces every change through mitt.
// Its members are named facets (session, patients, lanes, devices, results, marks, templates, users, dicom) over one
// cache; every sequence of calls a screen needs is a facet command, so views read state and call one command.

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

/** The caches named by the seeds (core/model CacheKey), kept current by live events. */
export interface CacheFacet {
  readonly snapshot: CacheSnapshot;
  /** The entry as cached (undefined when never asked for). */
  get<K extends CacheKey>(key: K, params: ParamsOf<K>): CacheEntry<K> | undefined;
  /** Loads (or reloads) one entry; resolves with its data, rejects with the ApiError. */
  fetch<K extends CacheKey>(key: K, params: ParamsOf<K>): Promise<DataOf<K>>;
  /** Reloads every cached entry of a key. */
  refetch(key: CacheKey): Promise<void>;
}

export interface Client {
  readonly events: Emitter<ClientEvents>;
  /** Grows with every `change` event: a view that read the client at one revision need not read it again until it grows. */
  readonly revision: number;
  /** The Api with session expiry applied: for the single calls no facet has a command for (e.g. enrolment, passwords). */
  readonly api: Api;
  readonly cache: CacheFacet;
  /** Reads beside the seeds' caches (audit pages, enrolled headsets, profile, latest results, a stand-alone run). */
  readonly reads: Reads;
  readonly session: SessionFacet;
  readonly patients: PatientsFacet;
  readonly lanes: LanesFacet;
  readonly devices: DevicesFacet;
  readonly results: ResultsFacet;
  readonly marks: MarksFacet;
  readonly templates: TemplatesFacet;
  readonly users: UsersFacet;
  /** The organisation's DICOM network (issue 29 §3): its settings saved, a peer verified, the worklist queried now. */
  readonly dicom: DicomFacet;
  /** Single sign-on through the organisation's identity provider (issue 33): the login link's options, the sign-in, logout. */
  readonly signOn: SignOnFacet;
  /** Trash, restore or delete for good, with the seeds' notices (unless `notices: false`) and the lists it changes read
   * again; resolves false (after a notice) on failure. */
  lifecycle(item: LifecycleItem, action: LifecycleAction, id: string, options?: LifecycleOptions): Promise<boolean>;
  dispose(): void;
}

const storedVariant = (storage: Storage): SchedulingVariant => (readSchedulingV2(storage.local) ? "appointments" : "measurements");

export function createClient(ports: ClientPorts, options: ClientOptions = {}): Client {
  const { socket, storage, clock } = ports;
  const events = mitt<ClientEvents>();
  // The multi-tests flag of the organisation chooses the variant; it is kept in the v2 scheduling key (seed: "a v2
  // scheduling key in local storage") so the technician view opens in the right variant before the organisation loads.
  const variant = (): SchedulingVariant => options.variant ?? storedVariant(storage);
  let revision = 0;
  const changed = (topic: ClientEvents["change"]) => {
    revision += 1;
    events.emit("change", topic);
  };
  const notify = (notice: Notice) => events.emit("notice", notice);

  const api = guardApi(ports.api, () => session.end("session-expired"));
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
  const reads = createReads(api, () => changed("cache"));
  const connectivity = createConnectivity(clock, () => changed("connectivity"));
  let viewsAt: { readonly revision: number; readonly views: readonly DeviceView[] } | undefined;
  const cachedDevices = (): readonly Device[] => entriesOf(cache.snapshot, CacheKey.Devices).flatMap((e) => e.data ?? []);
  const ctx: FacetContext = {
    api,
    storage,
    clock,
    cache,
    tracker,
    events,
    changed,
    notify,
    variant,
    cachedDevices,
    views: () => {
      // Built once per revision: every lane, tile and card reads them, and each read used to build all of them.
      if (viewsAt?.revision !== revision)
        viewsAt = { revision, views: cachedDevices().map((d) => deviceView(d, tracker.get(d.deviceSn), variant())) };
      return viewsAt.views;
    },
  };

  /** The revisions the lanes of this client's own drags will have: their live events are known, not refetched. */
  const ownLaneRevisions = new Map<string, OwnLane>();
  const devices = createDevicesFacet(ctx);
  const patients = createPatientsFacet(ctx);
  const session = createSessionFacet(ctx, {
    rawApi: ports.api,
    socket,
    connectivity,
    clearLocal: () => {
      cache.clear();
      reads.clear();
      tracker.clear();
      devices.clear();
      ownLaneRevisions.clear();
    },
  });

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
        devices.statusChanged(effect.deviceSn, effect.status);
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
      const context = { viewedPatientId: patients.facet.viewed, ownLaneRevisions };
      cache.applyEvent((s) => {
        const outcome = reduceLiveEvent(s, message, context);
        effects ??= outcome.effects;
        return outcome.snapshot;
      });
      (effects ?? []).forEach(runEffect);
      return;
    }
    if (message.type === "token_expired" || message.type === "token_verification_error") session.end("session-expired");
    else if (message.type === "another_session_opened") session.end("another-session-opened");
  };

  let lostLive = false;
  const onSocketState = (state: SocketState) => {
    // "An abnormal close ... marks it disconnected" and clears live progress: any close we did not ask for.
    if (state === SocketState.Closed && !session.closingSocket) {
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
  const lifecycle = (item: LifecycleItem, action: LifecycleAction, id: string, options?: LifecycleOptions) =>
    runLifecycle(
      { api, notify, refetch: (key) => cache.refetch(key), goHome: () => events.emit("navigate", { to: "home" }) },
      item,
      action,
      id,
      options,
    );

  return {
    events,
    get revision() {
      return revision;
    },
    api,
    cache: {
      get snapshot() {
        return cache.snapshot;
      },
      get: (key, params) => cache.get(key, params),
      fetch: (key, params) => cache.fetch(key, params),
      refetch: (key) => cache.refetch(key),
    },
    reads,
    session: session.facet,
    patients: patients.facet,
    lanes: createLanesFacet(ctx, devices.facet, ownLaneRevisions),
    devices: devices.facet,
    results: createResultsFacet(ctx, lifecycle, reads),
    marks: createMarksFacet(ctx),
    templates: createTemplatesFacet(ctx),
    users: createUsersFacet(ctx),
    dicom: createDicomFacet(ctx, reads),
    signOn: createSignOnFacet(ctx, ports.api, session.facet, reads),
    lifecycle,
    dispose() {
      unsubscribers.forEach((u) => u());
      session.closeSocket();
      tracker.dispose();
      connectivity.dispose();
      patients.searchInput.cancel();
      events.all.clear();
    },
  };
}
