import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useClient, useCache } from "../../state/client.ts";
import { useRead } from "../../state/use-read.ts";
import { CacheKey, testResultRoute } from "../../../core/client/index.ts";
import type { Patient } from "../../../core/model/patient.ts";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { PatientFormModal } from "../patient/PatientFormModal.tsx";
import { PatientSearch } from "./PatientSearch.tsx";
import { fromDevicesAndResults, fromExamination, homeTestLists, type TestEntry, type TestItem } from "./test-lists.ts";
import { TestTypeName } from "./TestTypeName.tsx";
import { ReviewCounts } from "./ReviewCounts.tsx";
import { useDateFormat } from "../../i18n/format.ts";
import { eyeNames } from "../../i18n/names.ts";
import { useTitle } from "../../ui/useTitle.ts";

export default function HomePage() {
  const { t } = useLingui();
  useTitle(t`Home`);
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const organisation = useCache(CacheKey.CurrentOrganisation, {});
  const byAppointment = organisation.data?.multiTests ?? false;
  // Appointment variant: examinations; measurement variant: the measurements queued on the devices.
  const exams = useCache(CacheKey.Examinations, {});
  const devices = useCache(CacheKey.Devices, {});
  const patients = useCache(CacheKey.Patients, {});
  const names = new Map(((patients.data ?? []) as readonly Patient[]).map((p) => [p.id, p.name]));
  // Measurement variant: the latest results, fetched again whenever a lane changes (a result arriving leaves its lane).
  const client = useClient();
  const laneKey = devices.data ? devices.data.map((d) => `${d.deviceSn}:${d.revision}:${d.perimetries.length}`).join() : "";
  const results = useRead("perimetry.recent", byAppointment ? null : {});
  const firstLanes = useRef(laneKey);
  useEffect(() => {
    if (byAppointment || laneKey === firstLanes.current) return;
    firstLanes.current = laneKey;
    void client.reads.reload("perimetry.recent");
  }, [client, byAppointment, laneKey]);
  const items = byAppointment
    ? exams.data?.map(fromExamination)
    : devices.data && results.data
      ? fromDevicesAndResults(devices.data, results.data)
      : undefined;
  const lists = organisation.data && items ? homeTestLists(items, byAppointment) : null;
  const sourceState = byAppointment ? exams.status : devices.status === "success" ? results.status : devices.status;
  const listState = organisation.status === "error" ? "error" : organisation.data ? sourceState : "loading";

  return (
    <div className="page stack">
      <div className="row">
        <h1 className="spacer" style={{ margin: 0 }}>{t`Home`}</h1>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>{t`Create patient`}</button>
      </div>
      <div className="home-grid">
        <PatientSearch />
        <div className="stack">
          <ReviewCounts />
          <TestList
            title={t`Recent tests`}
            empty={t`No tests have results yet.`}
            state={listState}
            entries={lists?.recent}
            names={names}
            link={(e) => testResultRoute(e.patientId, e.type, e.id)}
          />
          <TestList
            title={t`Scheduled tests`}
            empty={t`No tests are scheduled.`}
            state={listState}
            entries={lists?.scheduled}
            names={names}
            link={(e) => `/technician?scrollTo=${e.deviceSn ?? ""}/${e.id}`}
          />
        </div>
      </div>
      {creating && (
        <PatientFormModal
          onClose={() => setCreating(false)}
          onSaved={(p) => {
            setCreating(false);
            navigate(`/patient/${p.id}/perimetry/all`);
          }}
        />
      )}
    </div>
  );
}

function TestList({
  title,
  empty,
  state,
  entries,
  names,
  link,
}: {
  title: string;
  empty: string;
  state: "loading" | "error" | "success";
  entries: TestEntry[] | undefined;
  names: Map<string, string>;
  link: (e: TestItem) => string;
}) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {state === "loading" && <Skeleton kind="fields" count={3} />}
      {state === "error" && (
        <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>
      )}
      {entries && entries.length === 0 && <p className="muted">{empty}</p>}
      {entries && entries.length > 0 && (
        <ul className="list">
          {entries.map((entry) => (
            <li key={entry.item.id}>
              <Link className="patient-row" style={{ minHeight: 48 }} to={link(entry.item)}>
                <span className="spacer">
                  <strong>{names.get(entry.item.patientId) ?? t`Unknown patient`}</strong>
                  <br />
                  <span className="muted">
                    {entry.items
                      .map((e) => (
                        // The eye beside each test: a patient's two eyes are otherwise two identical rows (issue 21).
                        // One test's words stay together; a row wraps between tests.
                        <span key={e.id} data-testid="home-test" style={{ whiteSpace: "nowrap" }}>
                          <TestTypeName type={e.type} /> · {i18n._(eyeNames[e.eye])}
                        </span>
                      ))
                      .reduce<React.ReactNode[]>((acc, el, i) => (i ? [...acc, ", ", el] : [el]), [])}
                  </span>
                </span>
                <span className="num muted">{format.dateTime(entry.at)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
