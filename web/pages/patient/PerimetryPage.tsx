import { useEffect, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import type { Measurement } from "../../../core/model/measurement.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useClient } from "../../state/client.ts";
import { useCachedQuery } from "../../state/use-cached.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { usePatient } from "../../state/patient-context.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { groupByDay } from "./measurement-groups.ts";
import { MeasurementSummary } from "./MeasurementSummary.tsx";
import { NotesDialog } from "./NotesDialog.tsx";
import { PerimetryResults } from "../../results/PerimetryResults.tsx";

/**
 * The perimetry page: the selected result (plots, indices, baseline and unreliable toggles, print), the progression
 * chart and the visual-field history from web/results, then the measurement list grouped by date with notes.
 * /patient/:id/perimetry/all is the full history (perimetryId "all").
 */
export default function PerimetryPage() {
  const { t } = useLingui();
  const { perimetryId = "all" } = useParams();
  const [params] = useSearchParams();
  const patient = usePatient();
  const client = useClient();
  const format = useDateFormat();
  const list = useCachedQuery(CacheKey.Measurements, { patientId: patient.id });
  const [notesFor, setNotesFor] = useState<Measurement | null>(null);

  // "?scrollToMeasurement=1 scrolls to the selected measurement" (accounts seed §2)
  useEffect(() => {
    if (list.status !== "success" || perimetryId === "all" || params.get("scrollToMeasurement") !== "1") return;
    document.getElementById(`measurement-${perimetryId}`)?.scrollIntoView({ block: "center" });
  }, [list.status, perimetryId, params]);

  if (list.status === "loading") return <Skeleton kind="patient-cards" count={4} />;
  if (list.status === "error") return <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>;
  const groups = groupByDay(list.data);
  if (groups.length === 0) return <EmptyState title={t`No perimetry tests yet`} hint={t`Schedule a test from the technician view.`} />;

  return (
    <div className="stack">
    <PerimetryResults patient={patient} measurements={list.data} perimetryId={perimetryId} />
    <section aria-labelledby="perimetry-heading" className="stack">
      <h2 id="perimetry-heading">{t`Perimetry tests`}</h2>
      {groups.map((g) => (
        <div key={g.day} className="card">
          <h3>{format.date(g.day)}</h3>
          <ul className="list">
            {g.items.map((m) => (
              <li key={m.id} id={`measurement-${m.id}`} aria-current={m.id === perimetryId ? "true" : undefined}
                style={m.id === perimetryId ? { background: "var(--accent-soft)" } : undefined}>
                <div className="row" style={{ padding: "var(--space-2) 0" }}>
                  <span className="spacer"><MeasurementSummary m={m} /></span>
                  {m.notes && <span className="muted" title={m.notes}>{t`Has notes`}</span>}
                  <button type="button" className="btn" onClick={() => setNotesFor(m)}>{t`Notes`}</button>
                  {m.id !== perimetryId && <Link className="btn" to={`../perimetry/${m.id}`} relative="path">{t`Select`}</Link>}
                </div>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {notesFor && (
        <NotesDialog measurement={notesFor} onClose={() => setNotesFor(null)}
          onSaved={() => void client.refetch(CacheKey.Measurements)} />
      )}
    </section>
    </div>
  );
}
