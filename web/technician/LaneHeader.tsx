import { useSetAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import type { DeviceView } from "../../core/client/device-view.ts";
import { ConnectionStatus, DeviceStatus } from "../../core/model/enums.ts";
import { isPreparing } from "../../core/device/status.ts";
import { useClient, useClientState } from "../state/client.ts";
import { measurementFormAtom, wizardAtom } from "../state/technician.ts";
import { Toggle } from "../ui/Toggle.tsx";
import { Tooltip } from "../ui/Tooltip.tsx";
import { useNotify } from "../ui/notifications.ts";
import { AliasEditor } from "./AliasEditor.tsx";
import { Battery } from "./Battery.tsx";
import { DeviceControls } from "./DeviceControls.tsx";
import { deviceStatusNames } from "./names.ts";

type Tone = "connected" | "running" | "paused" | "off";

const toneOf = (view: DeviceView): Tone =>
  view.connection !== ConnectionStatus.Connected
    ? "off"
    : view.status === DeviceStatus.Paused
      ? "paused"
      : view.status === DeviceStatus.Playing || isPreparing(view.status)
        ? "running"
        : "connected";

/** A lane's header: identity, connection and status, batteries, pin, stand-alone switch, the plus control, controls. */
export function LaneHeader({ view }: { view: DeviceView }) {
  const { t, i18n } = useLingui();
  const client = useClient();
  const notify = useNotify();
  const device = view.device;
  const pinned = useClientState((c) => c.marks.pinned.includes(device.deviceSn));
  const openForm = useSetAtom(measurementFormAtom);
  const openWizard = useSetAtom(wizardAtom);
  const connected = view.connection === ConnectionStatus.Connected;
  const name = device.alias || device.deviceSn;

  const standaloneOn = device.standaloneId !== null;
  const switchStandalone = async (on: boolean) => {
    // "Turning on opens the measurement form in stand-alone mode; turning off sends null."
    if (on) return openForm({ mode: "standalone", deviceSn: device.deviceSn });
    try {
      // Mid-run the repetition under way finishes and uploads; no other starts.
      if ((await client.devices.setStandalone(device.deviceSn, null)) && view.testRunning)
        notify({ kind: "info", text: t`Stand-alone mode is off. The test under way on ${name} finishes; no other starts.` });
    } catch {
      notify({ kind: "error", text: t`Stand-alone mode could not be switched off. Try again.` });
    }
  };

  return (
    <header className="lane-header">
      <AliasEditor device={device} />
      <span className="lane-status" data-tone={toneOf(view)} data-testid="connection">
        <span className="dot" aria-hidden="true" />
        {connected ? t`Connected` : t`Disconnected`}
        {connected && <> · {i18n._(deviceStatusNames[view.status])}</>}
      </span>
      <Battery which="vr" battery={device.battery.vr} />
      <Battery which="clicker" battery={device.battery.clicker} />
      <DeviceControls view={view} />
      <div className="lane-tools">
        {/* On: shown and switchable off at any time. Off: the seed's rule (connected, standby or awaiting, no test running). */}
        {standaloneOn && (
          <span className="lane-status" data-tone="standalone" data-testid="standalone-badge">{t`Stand-alone mode on`}</span>
        )}
        {(view.standaloneToggle.visible || standaloneOn) && (
          <Toggle
            label={t`Stand-alone`}
            checked={standaloneOn}
            disabled={!standaloneOn && view.standaloneToggle.disabled}
            onChange={(on) => void switchStandalone(on)}
          />
        )}
        <Tooltip text={pinned ? t`Unpin ${name}` : t`Pin ${name} to the top`}>
          <button
            type="button"
            className="btn btn-sm btn-icon"
            aria-pressed={pinned}
            aria-label={pinned ? t`Unpin ${name}` : t`Pin ${name}`}
            onClick={() => client.marks.togglePin(device.deviceSn)}
          >
            {pinned ? "★" : "☆"}
          </button>
        </Tooltip>
        {/* "a plus control that opens a new-measurement form (or, in the appointment variant, a wizard)" */}
        {client.lanes.variant === "measurements" ? (
          <Tooltip text={t`New measurement on ${name}`}>
            <button
              type="button"
              className="btn btn-sm btn-primary btn-icon"
              aria-label={t`New measurement on ${name}`}
              onClick={() => openForm({ mode: "create", deviceSn: device.deviceSn })}
            >
              +
            </button>
          </Tooltip>
        ) : (
          <Tooltip text={t`New appointment on ${name}`}>
            <button
              type="button"
              className="btn btn-sm btn-primary btn-icon"
              aria-label={t`New appointment on ${name}`}
              onClick={() => openWizard({ deviceSn: device.deviceSn })}
            >
              +
            </button>
          </Tooltip>
        )}
      </div>
    </header>
  );
}
