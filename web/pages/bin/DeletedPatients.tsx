import { useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import type { Patient } from "../../../core/model/patient.ts";
import { BinList } from "./BinList.tsx";

export default function DeletedPatients() {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <BinList<Patient>
      cacheKey="trashedPatients"
      describe={(p) => (
        <>
          <strong>{p.name}</strong>{" "}
          <span className="muted">
            {t`ID`} {p.uniqueId}
          </span>
        </>
      )}
      open={(p) => navigate(`/patient/${p.id}/overview`)}
      emptyTitle={t`No deleted patients`}
      restoredText={t`The patient was restored.`}
      deleteQuestion={t`Delete this patient for good?`}
    />
  );
}
