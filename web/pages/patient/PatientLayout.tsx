import { useEffect, useState } from "react";
import { NavLink, Outlet, useNavigate, useParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { ageOn } from "../../../core/model/patient.ts";
import { isApiError } from "../../../core/model/contract/index.ts";
import { languageNames, sexNames } from "../../i18n/names.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useApi, useClient, useCache } from "../../state/client.ts";
import { CacheKey } from "../../../core/client/index.ts";
import type { Patient } from "../../../core/model/patient.ts";
import { todayIso } from "../../state/today.ts";
import { useNotify } from "../../ui/notifications.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { PatientFormModal } from "./PatientFormModal.tsx";
import { useIsManager } from "../../state/session.ts";
import { ImportDialog } from "../../import/ImportDialog.tsx";
import { FetchPriorsButton, FetchPriorsDialog } from "./FetchPriors.tsx";
import type { PatientContext } from "../../state/patient-context.ts";

export default function PatientLayout() {
  const { t, i18n } = useLingui();
  const { patientId = "" } = useParams();
  const api = useApi();
  const navigate = useNavigate();
  const notify = useNotify();
  const format = useDateFormat();
  // The patient from core/client's cache: an edit made elsewhere reaches the header through the live events.
  const patient = useCache(CacheKey.Patients, { id: patientId }) as
    | { status: "loading"; data: undefined; error: undefined }
    | { status: "error"; data: undefined; error: unknown }
    | { status: "success"; data: Patient; error: undefined };
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [importing, setImporting] = useState(false);
  const [fetching, setFetching] = useState(false);
  const isManager = useIsManager();

  // core/client sends the user home when this patient is trashed elsewhere (live event).
  const client = useClient();
  useEffect(() => {
    client.patients.setViewed(patientId);
    return () => client.patients.setViewed(null);
  }, [client, patientId]);

  // "A trashed patient viewed on the profile navigates home." (accounts seed §2)
  useEffect(() => {
    if (patient.data && patient.data.trashedAt !== null) navigate("/home", { replace: true });
  }, [patient.data, navigate]);

  if (patient.status === "loading")
    return (
      <div className="page">
        <Skeleton kind="blocks" count={1} />
      </div>
    );
  if (patient.status === "error") {
    const gone = isApiError(patient.error) && patient.error.status === 404;
    return (
      <div className="page">
        <div className="alert alert-error" role="alert">
          {gone ? t`This patient does not exist or was deleted.` : t`The patient could not be loaded. Try again or refresh the browser.`}
        </div>
        <button type="button" className="btn" onClick={() => navigate("/home")}>{t`Back to the home page`}</button>
      </div>
    );
  }
  const p = patient.data;

  const trash = async () => {
    setBusy(true);
    try {
      await api.call("patient.trash", { query: { id: p.id } });
      // "Trashing a patient from the profile goes home and notifies with a link to the bin." (accounts seed §4)
      navigate("/home");
      notify({
        kind: "success",
        text: t`The patient was moved to the bin.`,
        action: { label: t`Open the bin`, run: () => navigate("/bin/deleted-patients") },
      });
    } catch {
      notify({ kind: "error", text: t`The patient could not be deleted. Try again later.` });
      setBusy(false);
      setDeleting(false);
    }
  };

  const context: PatientContext = { patient: p };
  return (
    <div className="page stack">
      <header className="card">
        <div className="row">
          <button type="button" className="btn" onClick={() => navigate("/home")}>
            ← {t`Back`}
          </button>
          <h1 className="spacer" style={{ margin: 0 }}>
            {p.name}
          </h1>
          {isManager && <button type="button" className="btn" onClick={() => setImporting(true)}>{t`Import results`}</button>}
          {isManager && <FetchPriorsButton onOpen={() => setFetching(true)} />}
          <button type="button" className="btn" onClick={() => setEditing(true)}>{t`Edit`}</button>
          <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>{t`Delete`}</button>
        </div>
        <dl className="row" style={{ gap: "var(--space-6)", margin: "var(--space-3) 0 0" }}>
          <div>
            <dt className="muted">{t`Patient ID`}</dt>
            <dd style={{ margin: 0 }}>{p.uniqueId}</dd>
          </div>
          <div>
            <dt className="muted">{t`Birthdate`}</dt>
            <dd style={{ margin: 0 }} className="num">
              {format.date(p.birthdate)} ({t`${ageOn(p.birthdate, todayIso())} years`})
            </dd>
          </div>
          <div>
            <dt className="muted">{t`Gender`}</dt>
            <dd style={{ margin: 0 }}>{i18n._(sexNames[p.gender])}</dd>
          </div>
          <div>
            <dt className="muted">{t`Patient language`}</dt>
            <dd style={{ margin: 0 }}>{i18n._(languageNames[p.lang])}</dd>
          </div>
        </dl>
      </header>
      <nav className="tabs" aria-label={t`Patient pages`}>
        <NavLink to="overview">{t`Overview`}</NavLink>
        <NavLink to="perimetry/all">{t`Perimetry`}</NavLink>
        <NavLink to="amsler-grid">{t`Amsler grid`}</NavLink>
        <NavLink to="home-monitoring">{t`Home monitoring`}</NavLink>
      </nav>
      <Outlet context={context} />
      {editing && (
        <PatientFormModal
          patient={p}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            notify({ kind: "success", text: t`The patient's details were saved.` });
          }}
        />
      )}
      {importing && <ImportDialog patientId={p.id} patientName={p.name} onClose={() => setImporting(false)} />}
      {fetching && <FetchPriorsDialog patient={p} onClose={() => setFetching(false)} />}
      {deleting && (
        <ConfirmDialog
          title={t`Delete this patient?`}
          confirmLabel={t`Move to the bin`}
          danger
          busy={busy}
          onCancel={() => setDeleting(false)}
          onConfirm={() => void trash()}
        >
          <p>{t`The patient and their tests go to the bin. You can restore them from there.`}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
