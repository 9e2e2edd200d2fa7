import type { WantedStatus } from "../device/status.ts";
import type { DeviceStatus } from "../model/enums.ts";
import { readPinned } from "./local-marks.ts";
import { orderPinnedFirst } from "../scheduling/pinned-lanes.ts";
import { CONFIRM_TEXT, COMMAND_FAILED_NOTICE, type CommandDialog, type StandaloneSwitch } from "./device-commands.ts";
import type { DeviceView } from "./device-view.ts";
import type { FacetContext } from "./facet-context.ts";

// The devices facet (scheduling seed §4 "Controls", "Stand-alone mode", §9 alias): every device with its live state,
// the confirmation dialog of each control, stand-alone mode and the alias.

/** "alias error 1 s" (scheduling seed §9). */
export const ALIAS_ERROR_MS = 1_000;

export interface DevicesFacet {
  /** Every cached device with its live state, pinned lanes first. */
  list(): DeviceView[];
  one(deviceSn: string): DeviceView | undefined;
  commandDialog(deviceSn: string): CommandDialog | undefined;
  askForStatus(deviceSn: string, wanted: WantedStatus): void;
  cancelCommand(deviceSn: string): void;
  confirmCommand(deviceSn: string): Promise<void>;
  /** Turn stand-alone mode on (a configuration; false while a test runs) or off (null; whenever it is on, taken between
   * runs). Rejects with the ApiError. */
  setStandalone(deviceSn: string, config: StandaloneSwitch): Promise<boolean>;
  /** False when the server refused; the alias error then shows for 1 s (`aliasError`). */
  rename(deviceSn: string, alias: string): Promise<boolean>;
  aliasError(deviceSn: string): boolean;
}

export interface DevicesControl {
  readonly facet: DevicesFacet;
  /** A live status: "The dialog resets when the device status changes." */
  statusChanged(deviceSn: string, status: DeviceStatus): void;
  /** Forget the open dialogs (logout). */
  clear(): void;
}

export function createDevicesFacet(ctx: FacetContext): DevicesControl {
  const dialogs = new Map<string, CommandDialog>();
  const aliasErrors = new Set<string>();
  const bySn = (sn: string) => ctx.cachedDevices().find((d) => d.deviceSn === sn);
  const one = (sn: string) => ctx.views().find((v) => v.device.deviceSn === sn);

  const facet: DevicesFacet = {
    list: () => orderPinnedFirst(ctx.views(), new Set(readPinned(ctx.storage.local)), (v) => v.device.deviceSn),
    one,
    commandDialog: (sn) => dialogs.get(sn),
    askForStatus(sn, wanted) {
      dialogs.set(sn, { phase: "confirm", wanted, text: CONFIRM_TEXT[wanted] });
      ctx.changed("commands");
    },
    cancelCommand(sn) {
      if (dialogs.delete(sn)) ctx.changed("commands");
    },
    async confirmCommand(sn) {
      const dialog = dialogs.get(sn);
      const device = bySn(sn);
      if (!dialog || !device) return;
      dialogs.set(sn, { phase: "sending", wanted: dialog.wanted, text: "command sent" });
      ctx.changed("commands");
      try {
        await ctx.api.call("device.update", { query: { id: device.id }, body: { status: dialog.wanted } });
      } catch {
        dialogs.delete(sn);
        ctx.changed("commands");
        ctx.notify(COMMAND_FAILED_NOTICE);
      }
    },
    async setStandalone(sn, config) {
      // "Stand-alone mode cannot change while another measurement runs": turning it on. Off is sent whenever it is
      // on; the headset honours it between runs.
      const view = one(sn);
      if (!view || (config !== null && view.standaloneToggle.disabled) || (config === null && view.device.standaloneId === null))
        return false;
      await ctx.api.call("device.standalone", { query: { deviceSn: sn }, body: config });
      return true;
    },
    async rename(sn, alias) {
      const device = bySn(sn);
      // "The device alias form sends only a non-empty alias."
      if (!device || alias.trim() === "") return false;
      try {
        await ctx.api.call("device.update", { query: { id: device.id }, body: { alias: alias.trim() } });
        return true;
      } catch {
        // "Alias change failed: error shown for 1 s"
        aliasErrors.add(sn);
        ctx.changed("commands");
        ctx.clock.setTimeout(() => {
          aliasErrors.delete(sn);
          ctx.changed("commands");
        }, ALIAS_ERROR_MS);
        return false;
      }
    },
    aliasError: (sn) => aliasErrors.has(sn),
  };

  return {
    facet,
    statusChanged(sn, status) {
      // Heartbeats repeat the status: only a change resets the dialog.
      if (ctx.tracker.get(sn)?.status !== status && dialogs.delete(sn)) ctx.changed("commands");
    },
    clear: () => dialogs.clear(),
  };
}
