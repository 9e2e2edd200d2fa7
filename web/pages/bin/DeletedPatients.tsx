import { useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useApi } from "../../state/client.ts";
import type { Patient } from "../../../core/model/patient.ts";
import { BinList } from "./BinList.tsx";

export default function DeletedPatients() {
  const { t } = useLingui();
  const api = useApi();
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
      restore={(p) => api.call("patient.restore", { query: { id: p.id } })}
      remove={(p) => api.call("patient.delete", { query: { id: p.id } })}
      open={(p) => navigate(`/patient/${p.id}/overview`)}
      emptyTitle={t`No deleted patients`}
      restoredText={t`The patient was restored.`}
      deleteQuestion={t`Delete this patient for good?`}
    />
  );
}
