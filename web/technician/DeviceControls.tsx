import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { DeviceView } from "../../core/client/device-view.ts";
import { DeviceStatus } from "../../core/model/enums.ts";
import type { WantedStatus } from "../../core/device/status.ts";
import { useApi } from "../state/client.ts";
import { Modal } from "../ui/Modal.tsx";

// Stop / pause / play / resume (scheduling seed §4 "Controls"): availability from core/device, a confirmation dialog
// with one text per wanted status, 'command sent' while loading, reset when the device status changes, and the
// seed's failure message.

type Phase = { kind: "confirm" } | { kind: "sending" } | { kind: "sent" } | { kind: "failed" };

export function DeviceControls({ view }: { view: DeviceView }) {
  const { t } = useLingui();
  const api = useApi();
  const [wanted, setWanted] = useState<WantedStatus | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "confirm" });
  const status = view.status;
  const first = useRef(true);

  // "The dialog resets when the device status changes."
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    setWanted(null);
    setPhase({ kind: "confirm" });
  }, [status]);

  const play = view.playControl;
  const ask = (w: WantedStatus) => { setWanted(w); setPhase({ kind: "confirm" }); };
  const close = () => { setWanted(null); setPhase({ kind: "confirm" }); };
  const send = async () => {
    if (wanted === null) return;
    setPhase({ kind: "sending" });
    try {
      await api.call("device.update", { query: { id: view.device.id }, body: { status: wanted } });
      setPhase((p) => (p.kind === "sending" ? { kind: "sent" } : p));
    } catch {
      setPhase({ kind: "failed" });
    }
  };

  const texts: Record<WantedStatus, { title: string; body: string; confirm: string }> = {
    [DeviceStatus.Stopped]: {
      title: t`Stop the test?`,
      body: t`The test on ${view.device.alias || view.device.deviceSn} stops now. Answers given so far are not saved as a result.`,
      confirm: t`Stop`,
    },
    [DeviceStatus.Paused]: {
      title: t`Pause the test?`,
      body: t`The test on ${view.device.alias || view.device.deviceSn} pauses until you resume it.`,
      confirm: t`Pause`,
    },
    [DeviceStatus.Playing]: {
      title: status === DeviceStatus.Paused ? t`Resume the test?` : t`Start the test?`,
      body: status === DeviceStatus.Paused
        ? t`The test on ${view.device.alias || view.device.deviceSn} continues where it stopped.`
        : t`The next test in the lane starts on ${view.device.alias || view.device.deviceSn}. Make sure the patient wears the headset.`,
      confirm: status === DeviceStatus.Paused ? t`Resume` : t`Start`,
    },
  };
  const text = wanted === null ? null : texts[wanted];
  const busy = phase.kind === "sending" || phase.kind === "sent";

  return (
    <div className="lane-controls" role="group" aria-label={t`Test controls`}>
      {play.kind === "pause" && (
        <button type="button" className="btn btn-sm" disabled={play.disabled} onClick={() => ask(DeviceStatus.Paused)}>{t`Pause`}</button>
      )}
      {play.kind === "resume" && (
        <button type="button" className="btn btn-sm" onClick={() => ask(DeviceStatus.Playing)}>{t`Resume`}</button>
      )}
      {play.kind === "start" && (
        <button type="button" className="btn btn-sm" disabled={status === DeviceStatus.NotConnected} onClick={() => ask(DeviceStatus.Playing)}>{t`Start`}</button>
      )}
      <button type="button" className="btn btn-sm" disabled={view.stopDisabled} onClick={() => ask(DeviceStatus.Stopped)}>{t`Stop`}</button>
      {text && (
        <Modal title={text.title} onClose={close} role="alertdialog"
          actions={<>
            <button type="button" className="btn" onClick={close}>{t`Cancel`}</button>
            <button type="button" className={wanted === DeviceStatus.Stopped ? "btn btn-danger" : "btn btn-primary"} disabled={busy} onClick={() => void send()}>
              {text.confirm}
            </button>
          </>}>
          <p>{text.body}</p>
          {busy && <p role="status">{t`command sent`}</p>}
          {phase.kind === "failed" && (
            <p className="alert alert-error" role="alert">{t`error sending the command to the VR device; use the controller or clicker`}</p>
          )}
        </Modal>
      )}
    </div>
  );
}
