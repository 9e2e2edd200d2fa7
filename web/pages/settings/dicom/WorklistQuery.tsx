import { useId, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { Plural, useLingui } from "@lingui/react/macro";
import { isApiError } from "../../../../core/model/contract/index.ts";
import type { WorklistReport, WorklistStep } from "../../../../core/model/dicom-network.ts";
import { patternLabel } from "../../../../core/model/enums.ts";
import { useDateFormat } from "../../../i18n/format.ts";
import { eyeNames, strategyNames } from "../../../i18n/names.ts";
import { useClient } from "../../../state/client.ts";
import "../../../import/import.css";
import { DryRunCheck } from "../../../import/DryRunCheck.tsx";

// "Query now" on the worklist card: the provider's steps of today for the station (client.dicom.queryWorklist), each
// with what became of it (queued on the headset, matched, seen before, refused and why: the server's words, as
// `isopter worklist` prints them), refused steps first. "Check only" says what would happen and writes nothing.

type Phase =
  | { readonly kind: "idle" }
  | { readonly kind: "running"; readonly dryRun: boolean }
  | { readonly kind: "done"; readonly report: WorklistReport }
  | { readonly kind: "failed"; readonly error: unknown };

export function WorklistQuery({ unsaved }: { unsaved: boolean }) {
  const { t } = useLingui();
  const client = useClient();
  const [dryRun, setDryRun] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const running = phase.kind === "running";

  const query = async () => {
    setPhase({ kind: "running", dryRun });
    try {
      setPhase({ kind: "done", report: await client.dicom.queryWorklist({ dryRun }) });
    } catch (error) {
      setPhase({ kind: "failed", error });
    }
  };

  return (
    <div className="dicom-check stack" data-testid="worklist-query">
      <h4>{t`Query the worklist now`}</h4>
      {unsaved && <p className="field-hint dicom-unsaved">{t`Queries with the saved settings, not your unsaved changes.`}</p>}
      <DryRunCheck checked={dryRun} disabled={running} hint={t`Says per step what would happen and writes nothing.`} onChange={setDryRun} />
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={running} onClick={() => void query()}>
          {dryRun ? t`Check the worklist` : t`Query now`}
        </button>
      </div>
      <div aria-live="polite" data-testid="worklist-report">
        {running && <p className="muted">{phase.dryRun ? t`Asking the worklist provider…` : t`Querying the worklist provider…`}</p>}
        {phase.kind === "failed" && <QueryFailure error={phase.error} />}
        {phase.kind === "done" && <WorklistReportView report={phase.report} />}
      </div>
    </div>
  );
}

function QueryFailure({ error }: { error: unknown }) {
  const { t } = useLingui();
  const api = isApiError(error) ? error : null;
  return (
    <div className="alert alert-error">
      {api?.status === 503 ? (
        <>
          <p className="dicom-result-title">{t`The worklist provider could not be used. Check the settings or try again later.`}</p>
          {/* The server's sentence names the provider (AE title, host and port) and what went wrong. */}
          <p className="dicom-result-detail" data-user-text>
            {api.message}
          </p>
        </>
      ) : api?.status === 404 ? (
        <>
          <p className="dicom-result-title">{t`No worklist provider is saved, or the chosen headset is no longer the organisation's.`}</p>
          <p className="dicom-result-detail" data-user-text>
            {api.message}
          </p>
        </>
      ) : api?.status === 403 ? (
        t`Only managers can query the worklist.`
      ) : (
        t`The worklist could not be queried. Try again or refresh the browser.`
      )}
    </div>
  );
}

/** The counts in the table's order: refused first. */
const actions = ["refused", "queued", "matched", "seen"] as const;

export function WorklistReportView({ report }: { report: WorklistReport }) {
  const { t } = useLingui();
  const headingId = useId();
  const dry = report.dryRun;
  // Refused steps first, the rest in the provider's scheduled order.
  const steps = useMemo(
    () =>
      report.steps
        .map((step, at) => ({ step, at }))
        .sort((a, b) => Number(b.step.action === "refused") - Number(a.step.action === "refused") || a.at - b.at),
    [report],
  );
  const counts = actions.map((a) => [a, report.steps.filter((s) => s.action === a).length] as const).filter(([, n]) => n > 0);
  const total = report.steps.length;
  return (
    <section className="dicom-report" aria-labelledby={headingId}>
      <h4 id={headingId}>{dry ? t`What would happen` : t`Query report`}</h4>
      {dry && <p className="muted">{t`Check only: nothing was written.`}</p>}
      <p data-testid="worklist-summary">
        {total === 0 ? (
          t`The worklist holds no step for this station today.`
        ) : (
          <Plural
            value={total}
            one="The worklist holds # step for this station today."
            other="The worklist holds # steps for this station today."
          />
        )}
      </p>
      {total > 0 && (
        <>
          <ul className="dicom-counts">
            {counts.map(([action, n]) => (
              <li key={action} className={`dicom-count dicom-count-${action}`} data-testid={`count-${action}`}>
                <span className="dicom-count-value">{n}</span> <ActionLabel action={action} dry={dry} />
              </li>
            ))}
          </ul>
          <div className="dicom-table-wrap">
            <table className="table dicom-steps">
              <thead>
                <tr>
                  <th scope="col">{t`Action`}</th>
                  <th scope="col">{t`Scheduled`}</th>
                  <th scope="col">{t`Patient`}</th>
                  <th scope="col">{t`Eye`}</th>
                  <th scope="col">{t`Pattern`}</th>
                  <th scope="col">{t`Strategy`}</th>
                  <th scope="col">{t`Step`}</th>
                </tr>
              </thead>
              <tbody>
                {steps.map(({ step, at }) => (
                  <StepRow key={at} step={step} dry={dry} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function ActionLabel({ action, dry }: { action: WorklistStep["action"]; dry: boolean }) {
  const { t } = useLingui();
  const labels: Record<WorklistStep["action"], string> = {
    queued: dry ? t`Would be queued` : t`Queued`,
    matched: dry ? t`Would be matched` : t`Matched`,
    seen: t`Seen before`,
    refused: t`Refused`,
  };
  return <>{labels[action]}</>;
}

function StepRow({ step: s, dry }: { step: WorklistStep; dry: boolean }) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const p = s.patient;
  return (
    <tr className={`dicom-step dicom-step-${s.action}`} data-action={s.action}>
      <td>
        <span className={`dicom-badge dicom-badge-${dry && (s.action === "queued" || s.action === "matched") ? "would" : s.action}`}>
          <ActionLabel action={s.action} dry={dry} />
        </span>
        {s.reason && (
          <span className="dicom-reason" data-user-text>
            {s.reason}
          </span>
        )}
      </td>
      <td className="dicom-nowrap">{s.scheduledAt ? format.dateTime(s.scheduledAt) : "–"}</td>
      <td>
        {p ? (
          <>
            {p.id !== null ? (
              <Link to={`/patient/${p.id}`} data-user-text>
                {p.name} ({p.uniqueId})
              </Link>
            ) : (
              <span data-user-text>
                {p.name} ({p.uniqueId})
              </span>
            )}
            {p.created && <span className="dicom-how">{dry ? t`would be created` : t`created`}</span>}
          </>
        ) : (
          "–"
        )}
      </td>
      <td>{s.eye !== null ? i18n._(eyeNames[s.eye]) : "–"}</td>
      <td className="dicom-nowrap">{s.pattern !== null ? patternLabel[s.pattern] : "–"}</td>
      <td>{s.strategy !== null ? i18n._(strategyNames[s.strategy]) : "–"}</td>
      <td className="dicom-item" data-user-text>
        {s.item}
      </td>
    </tr>
  );
}
