import { useAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { useClient } from "../state/client.ts";
import { trashRequestAtom } from "../state/technician.ts";
import { ConfirmDialog } from "../ui/Modal.tsx";
import { TestSubject } from "./TestSubject.tsx";

/**
 * "Delete and move actions need confirmation" (both seeds §5): moving a queued measurement or appointment to the bin
 * names what goes (patient, test, headset) first. core/client sends it and notifies: the measurement-trashed notice
 * with a link to the bin, 'Appointment trashed' with an action to view it, or on failure 'There was a problem deleting
 * the measurement.' / 'Failed to trash appointment'.
 */
export function TrashDialog() {
  const { t } = useLingui();
  const client = useClient();
  const [request, setRequest] = useAtom(trashRequestAtom);
  if (!request) return null;
  const device = request.deviceSn ? client.devices.one(request.deviceSn)?.device : undefined;
  const laneName = device ? device.alias || device.deviceSn : (request.deviceSn ?? "–");
  const appointment = request.item === "appointment";
  const close = () => setRequest(null);
  const confirm = () => {
    close();
    void client.lifecycle(request.item, "trash", request.test.itemId);
  };
  return (
    <ConfirmDialog
      title={appointment ? t`Move this appointment to the bin?` : t`Move this measurement to the bin?`}
      confirmLabel={t`Move to bin`}
      danger
      onCancel={close}
      onConfirm={confirm}
    >
      <p>
        {appointment
          ? t`The appointment leaves the lane with all its tests. You can restore it from the bin.`
          : t`The measurement leaves the lane. You can restore it from the bin.`}
      </p>
      <TestSubject test={request.test} laneName={laneName} />
    </ConfirmDialog>
  );
}
