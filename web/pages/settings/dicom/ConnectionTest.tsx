import { useId, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { DicomPeer } from "../../../../core/client/index.ts";
import { isApiError } from "../../../../core/model/contract/index.ts";
import type { EchoReport } from "../../../../core/model/dicom-network.ts";
import { useClient } from "../../../state/client.ts";

// "Test connection": a verification (C-ECHO) of the peer as saved (client.dicom.testConnection). The answer, whether
// the peer answered or not, is shown in the server's own sentence (it names the AE title, host and port), in a live
// region, so it is announced when it comes.

type Phase =
  | { readonly kind: "idle" }
  | { readonly kind: "running" }
  | { readonly kind: "done"; readonly report: EchoReport }
  | { readonly kind: "failed"; readonly error: unknown };

export function ConnectionTest({ peer, unsaved }: { peer: DicomPeer; unsaved: boolean }) {
  const { t } = useLingui();
  const client = useClient();
  const hintId = useId();
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const running = phase.kind === "running";

  const test = async () => {
    setPhase({ kind: "running" });
    try {
      setPhase({ kind: "done", report: await client.dicom.testConnection(peer) });
    } catch (error) {
      setPhase({ kind: "failed", error });
    }
  };

  // One sentence per peer and outcome: a name set into a sentence reads wrongly in languages that decline it.
  const answered = peer === "worklist" ? t`The worklist provider answered.` : t`The PACS answered.`;
  const silent = peer === "worklist" ? t`The worklist provider did not answer the test.` : t`The PACS did not answer the test.`;
  return (
    <div className="dicom-check" data-testid={`${peer}-connection`}>
      <div className="row">
        <button type="button" className="btn" disabled={running} aria-describedby={hintId} onClick={() => void test()}>
          {t`Test connection`}
        </button>
        <span id={hintId} className={unsaved ? "field-hint dicom-unsaved" : "field-hint"}>
          {unsaved ? t`Tests the saved settings, not your unsaved changes.` : t`Asks the peer to answer a verification (C-ECHO).`}
        </span>
      </div>
      <div aria-live="polite" aria-atomic="true" data-testid={`${peer}-connection-result`}>
        {running && <p className="muted dicom-result">{t`Testing the connection…`}</p>}
        {phase.kind === "done" && (
          <div className={phase.report.ok ? "alert alert-success dicom-result" : "alert alert-error dicom-result"}>
            <p className="dicom-result-title">{phase.report.ok ? answered : silent}</p>
            {/* The server's sentence names the peer (AE title, host and port) and what happened. */}
            <p className="dicom-result-detail" data-user-text>
              {phase.report.message}
            </p>
          </div>
        )}
        {phase.kind === "failed" && (
          <div className="alert alert-error dicom-result">
            {isApiError(phase.error) && phase.error.status === 404
              ? t`Nothing to test yet: save the settings first.`
              : t`The connection could not be tested. Try again later.`}
          </div>
        )}
      </div>
    </div>
  );
}
