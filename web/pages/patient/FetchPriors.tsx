import { useState } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { isApiError } from "../../../core/model/contract/index.ts";
import type { PacsFetchReport } from "../../../core/model/dicom-network.ts";
import type { Patient } from "../../../core/model/patient.ts";
import { ImportReportView } from "../../import/ImportReportView.tsx";
import { useClient } from "../../state/client.ts";
import { useRead } from "../../state/use-read.ts";
import { Modal } from "../../ui/Modal.tsx";
import "../../import/import.css";
import { DryRunCheck } from "../../import/DryRunCheck.tsx";

// "Fetch priors" on a patient's page (issue 29 §3), for managers of an organisation with a PACS in its DICOM settings:
// one core/client command (client.results.fetchPriors, pacs/fetch) asks the PACS for the patient's fields under their
// patient ID, retrieves those Isopter does not have and imports them as "Import results" does on this page. The answer
// is how many the PACS holds and the import's report in its words; "Check only" says what would happen and writes
// nothing. A PACS that cannot be used is named in the server's own sentence.

type Phase =
  | { readonly kind: "idle" }
  | { readonly kind: "running"; readonly dryRun: boolean }
  | { readonly kind: "done"; readonly report: PacsFetchReport }
  | { readonly kind: "failed"; readonly error: unknown };

/** The button, shown only when the organisation has a PACS (dicom/settings, a managers' read). */
export function FetchPriorsButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useLingui();
  const settings = useRead("dicom.settings", {});
  if (!settings.data?.pacs) return null;
  return <button type="button" className="btn" onClick={onOpen}>{t`Fetch priors`}</button>;
}

export function FetchPriorsDialog({ patient, onClose }: { patient: Pick<Patient, "id" | "name" | "uniqueId">; onClose: () => void }) {
  const { t } = useLingui();
  const client = useClient();
  const [dryRun, setDryRun] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const running = phase.kind === "running";
  const { name, uniqueId } = patient;

  const start = async () => {
    setPhase({ kind: "running", dryRun });
    try {
      setPhase({ kind: "done", report: await client.results.fetchPriors(patient.id, { dryRun }) });
    } catch (error) {
      setPhase({ kind: "failed", error });
    }
  };

  return (
    <Modal title={t`Fetch priors`} onClose={onClose}>
      <div className="import-panel stack">
        <p>
          {t`Isopter asks the PACS for ${name}'s visual fields (DICOM OPV) under patient ID ${uniqueId} and imports those it does not have yet. A field of another patient is refused.`}
        </p>
        <DryRunCheck
          checked={dryRun}
          disabled={running}
          hint={t`Says per field what would happen and writes nothing.`}
          onChange={setDryRun}
        />
        <div className="row">
          <button type="button" className="btn btn-primary" disabled={running} onClick={() => void start()}>
            {dryRun ? t`Check the PACS` : t`Fetch priors`}
          </button>
          {running && (
            <span className="muted" role="status">
              {phase.dryRun ? t`Asking the PACS…` : t`Fetching from the PACS…`}
            </span>
          )}
        </div>
        {phase.kind === "failed" && <FetchFailure error={phase.error} />}
        {phase.kind === "done" && (
          <p role="status" data-testid="pacs-found">
            {phase.report.found === 0 ? (
              t`The PACS holds no visual field of this patient.`
            ) : (
              <Plural
                value={phase.report.found}
                one="The PACS holds # visual field of this patient."
                other="The PACS holds # visual fields of this patient."
              />
            )}
          </p>
        )}
        {phase.kind === "done" && phase.report.found > 0 && <ImportReportView report={phase.report.imported} />}
      </div>
    </Modal>
  );
}

function FetchFailure({ error }: { error: unknown }) {
  const { t } = useLingui();
  const api = isApiError(error) ? error : null;
  return (
    <div className="alert alert-error" role="alert">
      {api?.status === 503 ? (
        <>
          <p style={{ margin: 0 }}>{t`The PACS could not be used. Check the DICOM settings or try again later.`}</p>
          {/* The server's sentence names the PACS (AE title, host and port) and what went wrong. */}
          <p style={{ margin: "var(--space-2) 0 0" }} data-user-text>
            {api.message}
          </p>
        </>
      ) : api?.status === 404 ? (
        t`No PACS is set for the organisation, or the patient no longer exists.`
      ) : api?.status === 403 ? (
        t`Only managers can fetch priors.`
      ) : (
        t`The priors could not be fetched. Try again or refresh the browser.`
      )}
    </div>
  );
}
