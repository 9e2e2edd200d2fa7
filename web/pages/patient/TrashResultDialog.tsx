import { useLingui } from "@lingui/react/macro";
import { patternLabel } from "../../../core/model/enums.ts";
import { perimetryTestName, testDate } from "../../../core/model/perimetry-test.ts";
import type { PerimetryTest } from "../../results/result-model.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { eyeNames } from "../../i18n/names.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { PatientName } from "../../ui/PatientName.tsx";

/**
 * "Delete and move actions need confirmation" (both seeds §5), from the patient's result list: a measurement goes to
 * the bin alone; a perimetry examination belongs to an appointment, which goes with all its tests (the bin keeps
 * appointments, accounts seed §2). The dialog names the patient, test, eye, pattern and date before anything goes.
 */
export function TrashResultDialog({ test, onCancel, onConfirm }: { test: PerimetryTest; onCancel: () => void; onConfirm: () => void }) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const appointment = test.source === "examination";
  return (
    <ConfirmDialog
      title={appointment ? t`Move this appointment to the bin?` : t`Move this measurement to the bin?`}
      confirmLabel={t`Move to bin`}
      danger
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        {appointment
          ? t`The appointment goes to the bin with all its tests, and their results leave this page. You can restore it from the bin.`
          : t`The measurement and its result go to the bin and leave this page. You can restore it from the bin.`}
      </p>
      <dl className="test-subject" data-testid="test-subject">
        <dt>{t`Patient`}</dt>
        <dd>
          <PatientName patientId={test.patientId} />
        </dd>
        <dt>{t`Test`}</dt>
        <dd>{perimetryTestName(test)}</dd>
        <dt>{t`Eye`}</dt>
        <dd>{i18n._(eyeNames[test.eye])}</dd>
        <dt>{t`Pattern`}</dt>
        <dd>{patternLabel[test.pattern]}</dd>
        <dt>{t`Date`}</dt>
        <dd>{format.date(testDate(test))}</dd>
      </dl>
    </ConfirmDialog>
  );
}
