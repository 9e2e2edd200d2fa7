import { useEffect, useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { TestType } from "../../../core/model/enums.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useClient, useCache } from "../../state/client.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { usePatient } from "../../state/patient-context.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { groupByDay } from "./measurement-groups.ts";
import { MeasurementSummary } from "./MeasurementSummary.tsx";
import { NotesDialog } from "./NotesDialog.tsx";
import { TrashResultDialog } from "./TrashResultDialog.tsx";
import { PerimetryResults } from "../../results/PerimetryResults.tsx";
import { perimetryTests, type PerimetryTest } from "../../results/result-model.ts";

const none: readonly never[] = [];

/**
 * The perimetry page: the selected result (plots, indices, baseline and unreliable toggles, print), the progression
 * chart and the visual-field history from web/results, then the measurement list grouped by date with notes.
 * /patient/:id/perimetry/all is the full history (perimetryId "all").
 * Both variants' tests are read: the patient's measurements and their taken perimetry examinations (appointment
 * variant, whose home and 'measurement ready' notice open /perimetry/{examinationId}). A clinic that switched its
 * multi-tests flag keeps the other variant's results, so the two lists are always shown as one history.
 */
export default function PerimetryPage() {
  const { t } = useLingui();
  const { perimetryId = "all" } = useParams();
  const [params] = useSearchParams();
  const patient = usePatient();
  const format = useDateFormat();
  const measurements = useCache(CacheKey.Measurements, { patientId: patient.id });
  const examinations = useCache(CacheKey.Examinations, { patientId: patient.id, examinationType: TestType.Perimetry, taken: true });
  // One list is enough to show the page; the other failing only says so (the page still shows what it has).
  const status =
    measurements.status === "loading" || examinations.status === "loading"
      ? "loading"
      : measurements.status === "error" && examinations.status === "error"
        ? "error"
        : "success";
  const partial = status === "success" && (measurements.status === "error" || examinations.status === "error");
  const tests = useMemo(() => perimetryTests(measurements.data ?? none, examinations.data ?? none), [measurements.data, examinations.data]);
  const [notesFor, setNotesFor] = useState<PerimetryTest | null>(null);
  const [trashing, setTrashing] = useState<PerimetryTest | null>(null);
  const navigate = useNavigate();
  const client = useClient();
  // A measurement goes to the bin itself; an examination with the appointment it belongs to (the bin keeps appointments).
  const trash = async (test: PerimetryTest) => {
    setTrashing(null);
    const appointmentId = test.source === "examination" ? examinations.data?.find((e) => e.id === test.id)?.appointmentId : null;
    if (!(await client.results.trash(test.source, test.id, appointmentId ?? null))) return;
    // The acting tab leaves a result that is gone.
    if (test.id === perimetryId) navigate(`/patient/${patient.id}/perimetry/all`, { replace: true });
  };

  // "?scrollToMeasurement=1 scrolls to the selected measurement" (accounts seed §2)
  useEffect(() => {
    if (status !== "success" || perimetryId === "all" || params.get("scrollToMeasurement") !== "1") return;
    document.getElementById(`measurement-${perimetryId}`)?.scrollIntoView({ block: "center" });
  }, [status, perimetryId, params]);

  if (status === "loading") return <Skeleton kind="patient-cards" count={4} />;
  if (status === "error")
    return <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>;
  // The tests that did load are shown under the page's usual error text (no new words to translate).
  const warning = partial && (
    <div className="alert alert-warning" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>
  );
  const groups = groupByDay(tests);
  if (groups.length === 0)
    return (
      <>
        {warning}
        <EmptyState title={t`No perimetry tests yet`} hint={t`Schedule a test from the technician view.`} />
      </>
    );

  return (
    <div className="stack">
      {warning}
      <PerimetryResults patient={patient} tests={tests} perimetryId={perimetryId} />
      <section aria-labelledby="perimetry-heading" className="stack">
        <h2 id="perimetry-heading">{t`Perimetry tests`}</h2>
        {groups.map((g) => (
          <div key={g.day} className="card">
            <h3>{format.date(g.day)}</h3>
            <ul className="list">
              {g.items.map((m) => (
                <li
                  key={m.id}
                  id={`measurement-${m.id}`}
                  aria-current={m.id === perimetryId ? "true" : undefined}
                  style={m.id === perimetryId ? { background: "var(--accent-soft)" } : undefined}
                >
                  <div className="row" style={{ padding: "var(--space-2) 0" }}>
                    <span className="spacer">
                      <MeasurementSummary m={m} />
                    </span>
                    {m.notes && <span className="muted" title={m.notes}>{t`Has notes`}</span>}
                    <button type="button" className="btn" onClick={() => setNotesFor(m)}>{t`Notes`}</button>
                    {m.id !== perimetryId && <Link className="btn" to={`/patient/${patient.id}/perimetry/${m.id}`}>{t`Select`}</Link>}
                    <button type="button" className="btn btn-quiet-danger" onClick={() => setTrashing(m)}>{t`Move to bin`}</button>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {trashing && <TrashResultDialog test={trashing} onCancel={() => setTrashing(null)} onConfirm={() => void trash(trashing)} />}
        {notesFor && <NotesDialog measurement={notesFor} onClose={() => setNotesFor(null)} />}
      </section>
    </div>
  );
}
