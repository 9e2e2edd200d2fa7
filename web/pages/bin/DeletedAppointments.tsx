import { useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { TestTypeName } from "../home/TestTypeName.tsx";
import type { Appointment } from "../../../core/model/appointment.ts";
import { BinList } from "./BinList.tsx";
import { PatientName } from "../../ui/PatientName.tsx";

export default function DeletedAppointments() {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <BinList<Appointment>
      cacheKey="trashedAppointments"
      describe={(a) => (
        <>
          <PatientName className="bin-patient" patientId={a.patientId} />
          <br />
          {t`Appointment`} ·{" "}
          {a.examinations.map((e, i) => (
            <span key={e.id}>
              {i > 0 && ", "}
              <TestTypeName type={e.type} />
            </span>
          ))}
        </>
      )}
      open={(a) => navigate(`/patient/${a.patientId}/overview`)}
      emptyTitle={t`No deleted appointments`}
      restoredText={t`The appointment was restored.`}
      deleteQuestion={t`Delete this appointment for good?`}
    />
  );
}
