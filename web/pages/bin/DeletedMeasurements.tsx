import { useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useApi } from "../../state/client.ts";
import { MeasurementSummary } from "../patient/MeasurementSummary.tsx";
import type { Measurement } from "../../../core/model/measurement.ts";
import { BinList } from "./BinList.tsx";
import { PatientName } from "../../ui/PatientName.tsx";

export default function DeletedMeasurements() {
  const { t } = useLingui();
  const api = useApi();
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
      restore={(m) => api.call("perimetry.restore", { query: { id: m.id } })}
      remove={(m) => api.call("perimetry.delete", { query: { id: m.id } })}
      open={(m) => navigate(`/patient/${m.patientId}/perimetry/${m.id}?scrollToMeasurement=1`)}
      emptyTitle={t`No deleted measurements`}
      restoredText={t`The measurement was restored.`}
      deleteQuestion={t`Delete this measurement for good?`}
    />
  );
}
