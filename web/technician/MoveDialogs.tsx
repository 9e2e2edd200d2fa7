import { useAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { useClient } from "../state/client.ts";
import { dropRefusedAtom, moveRequestAtom } from "../state/technician.ts";
import { ConfirmDialog, Modal } from "../ui/Modal.tsx";
import { TestSubject } from "./TestSubject.tsx";

/**
 * The drop dialogs (scheduling seed §8 "Drop dialogs | 'Drop not allowed'; 'no items between linked cards'") and the
 * move confirmation ("Delete and move actions need confirmation", §5): a dropped card moves only once confirmed, and
 * core/client then plans it again on the lanes as they are (a live change meanwhile is not overwritten).
 */
export function MoveDialogs() {
  const { t } = useLingui();
  const client = useClient();
  const [request, setRequest] = useAtom(moveRequestAtom);
  const [refused, setRefused] = useAtom(dropRefusedAtom);
  const laneName = (sn: string) => {
    const d = client.devices.one(sn)?.device;
    return d ? d.alias || d.deviceSn : sn;
  };
  if (refused) {
    const close = () => setRefused(false);
    return (
      <Modal
        title={t`Drop not allowed`}
        onClose={close}
        role="alertdialog"
        closeButton={false}
        actions={<button type="button" className="btn btn-primary" onClick={close}>{t`OK`}</button>}
      >
        <p>{t`no items between linked cards`}</p>
        <p className="muted">{t`The two eyes of one measurement stay side by side: drop the card before or after the pair.`}</p>
      </Modal>
    );
  }
  if (!request) return null;
  const close = () => setRequest(null);
  const confirm = () => {
    close();
    void (request.item === "appointment" ? client.lanes.moveAppointment(request.drop) : client.lanes.moveMeasurement(request.drop));
  };
  const from = laneName(request.fromSn);
  const to = laneName(request.toSn);
  const position = request.position;
  return (
    <ConfirmDialog
      title={request.item === "appointment" ? t`Move this appointment?` : t`Move this measurement?`}
      confirmLabel={t`Move`}
      onCancel={close}
      onConfirm={confirm}
    >
      <p>
        {request.fromSn === request.toSn
          ? t`It moves to place ${position} in the queue of ${to}.`
          : t`It moves from ${from} to place ${position} in the queue of ${to}.`}
      </p>
      <TestSubject test={request.test} laneName={from} />
    </ConfirmDialog>
  );
}
