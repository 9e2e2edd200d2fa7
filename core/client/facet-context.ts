import type { Emitter } from "mitt";
import type { Device } from "../model/device.ts";
import type { Api, Clock, Storage } from "../ports.ts";
import type { Notice } from "../scheduling/notice.ts";
import type { DeviceTracker } from "./device-tracker.ts";
import type { DeviceView, SchedulingVariant } from "./device-view.ts";
import type { ChangeTopic, ClientEvents } from "./events.ts";
import type { QueryCache } from "./query-cache.ts";

// What the client's facets share: the guarded Api, the caches, the device tracker and the ports. `createClient` builds
// it once and hands it to each facet; no facet reaches another's state.

export interface FacetContext {
  /** The Api with session expiry applied. */
  readonly api: Api;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly cache: QueryCache;
  readonly tracker: DeviceTracker;
  readonly events: Emitter<ClientEvents>;
  changed(topic: ChangeTopic): void;
  notify(notice: Notice): void;
  /** Measurement lanes or appointment lanes (the organisation's multi-tests flag, kept in the v2 scheduling key). */
  variant(): SchedulingVariant;
  /** Every device of the cached device lists (device/all). */
  cachedDevices(): readonly Device[];
  /** The cached devices with their live state, in list order. */
  views(): readonly DeviceView[];
}
