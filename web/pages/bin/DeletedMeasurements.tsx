import { useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { MeasurementSummary } from "../patient/MeasurementSummary.tsx";
import type { Measurement } from "../../../core/model/measurement.ts";
import { BinList } from "./BinList.tsx";
import { PatientName } from "../../ui/PatientName.tsx";

export default function DeletedMeasurements() {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <BinList<Measurement>
      cacheKey="trashedMeasurements"
      describe={(m) => (
        <>
          <PatientName className="bin-patient" patientId={m.patientId} />
          <br />
          <MeasurementSummary m={m} />
        </>
      )}
      open={(m) => navigate(`/patient/${m.patientId}/perimetry/${m.id}?scrollToMeasurement=1`)}
      emptyTitle={t`No deleted measurements`}
      restoredText={t`The measurement was restored.`}
      deleteQuestion={t`Delete this measurement for good?`}
    />
  );
}
