import { useLingui } from "@lingui/react/macro";
import { Modal } from "../ui/Modal.tsx";
import { ImportPanel } from "./ImportPanel.tsx";

/** "Import results" on a patient's page: the panel in a dialog, every field held to this patient. */
export function ImportDialog({ patientId, patientName, onClose }: { patientId: string; patientName: string; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal title={t`Import results`} onClose={onClose}>
      <ImportPanel patientId={patientId} patientName={patientName} />
    </Modal>
  );
}
