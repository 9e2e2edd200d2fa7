import { useLingui } from "@lingui/react/macro";
import type { DeviceView } from "../../core/client/device-view.ts";
import { ConnectionStatus, DeviceStatus } from "../../core/model/enums.ts";
import type { WantedStatus } from "../../core/device/status.ts";
import { useClient, useClientState } from "../state/client.ts";
import { Modal } from "../ui/Modal.tsx";
import { laneTest } from "../../core/scheduling/next-test.ts";
import { TestSubject } from "./TestSubject.tsx";

// Stop / pause / play / resume (scheduling seed §4 "Controls"): availability from core/device, and core/client's
// command dialog: a confirmation with one text per wanted status, 'command sent' while loading, reset when the device
// status changes; a failed command closes it with the seed's failure notice.

export function DeviceControls({ view }: { view: DeviceView }) {
  const { t } = useLingui();
  const client = useClient();
  const sn = view.device.deviceSn;
  const dialog = useClientState((c) => c.devices.commandDialog(sn));
  const status = view.status;
  const play = view.playControl;
  const name = view.device.alias || sn;
  // A headset that stopped beating (disconnected, "No heartbeat for 4 s") keeps its last status but cannot take a
  // command: every control waits until it is connected again, as for the status 'not connected'.
  const unreachable = view.connection !== ConnectionStatus.Connected;

  const texts: Record<WantedStatus, { title: string; body: string; confirm: string }> = {
    [DeviceStatus.Stopped]: {
      title: t`Stop the test?`,
      body: t`The test on ${name} stops now. Answers given so far are not saved as a result.`,
      confirm: t`Stop`,
    },
    [DeviceStatus.Paused]: {
      title: t`Pause the test?`,
      body: t`The test on ${name} pauses until you resume it.`,
      confirm: t`Pause`,
    },
    [DeviceStatus.Playing]: {
      title: status === DeviceStatus.Paused ? t`Resume the test?` : t`Start the test?`,
      body:
        status === DeviceStatus.Paused
          ? t`The test on ${name} continues where it stopped.`
          : t`The next test in the lane starts on ${name}. Make sure the patient wears the headset.`,
      confirm: status === DeviceStatus.Paused ? t`Resume` : t`Start`,
    },
  };
  const text = dialog ? texts[dialog.wanted] : null;
  // The test the command acts on: the running one, else the next in the lane.
  const subject = dialog ? laneTest(view.device, client.lanes.variant === "appointments", view.runningId) : null;
  const sending = dialog?.phase === "sending";
  const ask = (wanted: WantedStatus) => client.devices.askForStatus(sn, wanted);

  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar-like group of buttons in a lane, laid out by .lane-controls; a fieldset's frame has no place there
    <div className="lane-controls" role="group" aria-label={t`Test controls`}>
      {play.kind === "pause" && (
        <button
          type="button"
          className="btn btn-sm"
          disabled={play.disabled || unreachable}
          onClick={() => ask(DeviceStatus.Paused)}
        >{t`Pause`}</button>
      )}
      {play.kind === "resume" && (
        <button type="button" className="btn btn-sm" disabled={unreachable} onClick={() => ask(DeviceStatus.Playing)}>{t`Resume`}</button>
      )}
      {play.kind === "start" && (
        <button
          type="button"
          className="btn btn-sm"
          disabled={status === DeviceStatus.NotConnected || unreachable}
          onClick={() => ask(DeviceStatus.Playing)}
        >{t`Start`}</button>
      )}
      <button
        type="button"
        className="btn btn-sm"
        disabled={view.stopDisabled || unreachable}
        onClick={() => ask(DeviceStatus.Stopped)}
      >{t`Stop`}</button>
      {dialog && text && (
        <Modal
          title={text.title}
          onClose={() => client.devices.cancelCommand(sn)}
          role="alertdialog"
          actions={
            <>
              <button type="button" className="btn" onClick={() => client.devices.cancelCommand(sn)}>{t`Cancel`}</button>
              <button
                type="button"
                className={dialog.wanted === DeviceStatus.Stopped ? "btn btn-danger" : "btn btn-primary"}
                disabled={sending}
                onClick={() => void client.devices.confirmCommand(sn)}
              >
                {text.confirm}
              </button>
            </>
          }
        >
          <p>{text.body}</p>
          {subject && <TestSubject test={subject} laneName={name} />}
          {sending && <p role="status">{t`command sent`}</p>}
        </Modal>
      )}
    </div>
  );
}
