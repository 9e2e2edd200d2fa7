import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Eye, patternLabel } from "../../../core/model/enums.ts";
import type { HomeProgrammeView } from "../../../core/model/contract/index.ts";
import { eyeNames, strategyNames } from "../../i18n/names.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useApi, useClient } from "../../state/client.ts";
import { useRead } from "../../state/use-read.ts";
import { usePatient } from "../../state/patient-context.ts";
import { useNotify } from "../../ui/notifications.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { endWords, frequencyWords } from "./home-words.ts";
import { LendHeadsetForm } from "./LendHeadsetForm.tsx";

/**
 * The patient's home monitoring (issue 31 §1, §3): the programmes lent to them, active and ended, each with its
 * adherence (sessions due, done, missed and the rate on the clinic's today), the form that lends a headset, and
 * "Headset returned", which ends a programme after a confirmation.
 */
export default function HomeMonitoringPage() {
  const { t } = useLingui();
  const patient = usePatient();
  const client = useClient();
  const programmes = useRead("home.programmes", { query: { patientId: patient.id } });
  const [lending, setLending] = useState(false);
  const reload = () => {
    void client.reads.reload("home.programmes");
    void client.reads.reload("home.adherence");
  };
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="home-programmes">
        <div className="row">
          <h2 id="home-programmes" className="spacer" style={{ margin: 0 }}>{t`Home monitoring`}</h2>
          {!lending && <button type="button" className="btn btn-primary" onClick={() => setLending(true)}>{t`Lend a headset`}</button>}
        </div>
        {programmes.status === "loading" && <Skeleton kind="fields" count={2} />}
        {programmes.status === "error" && (
          <div className="alert alert-error" role="alert">{t`The home programmes cannot be displayed. Try again later.`}</div>
        )}
        {programmes.status === "success" && programmes.data.length === 0 && (
          <EmptyState title={t`No home programmes`} hint={t`Lend a headset to test this patient at home on a schedule.`} />
        )}
        {programmes.status === "success" && programmes.data.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>{t`Headset`}</th>
                <th>{t`Test`}</th>
                <th>{t`Frequency`}</th>
                <th>{t`Adherence`}</th>
                <th>{t`State`}</th>
              </tr>
            </thead>
            <tbody>
              {programmes.data.map((p) => (
                <ProgrammeRow key={p.id} programme={p} onEnded={reload} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {lending && (
        <LendHeadsetForm
          patientId={patient.id}
          onCancel={() => setLending(false)}
          onLent={() => {
            setLending(false);
            reload();
          }}
        />
      )}
    </div>
  );
}

function ProgrammeRow({ programme: p, onEnded }: { programme: HomeProgrammeView; onEnded: () => void }) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const api = useApi();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const pattern = patternLabel[p.pattern];
  const strategy = i18n._(strategyNames[p.strategy]);
  // A programme's both eyes are its two eyes (core/home); they read as the form offered them.
  const eyes = p.eyes.length === 2 ? i18n._(eyeNames[Eye.Both]) : p.eyes.map((e) => i18n._(eyeNames[e])).join(", ");
  const frequency = frequencyWords(p.frequency, i18n);
  const start = format.date(p.start);
  const end = format.date(p.end);
  const time = p.reminderTime;
  const reminderEmail = p.reminderEmail;
  const serial = p.deviceSn;
  const returned = async () => {
    setBusy(true);
    try {
      await api.call("home.programmeEnd", { query: { id: p.id }, body: { reason: "returned" } });
      notify({ kind: "success", text: t`The headset was returned; its programme has ended.` });
      onEnded();
    } catch {
      notify({ kind: "error", text: t`The programme could not be ended. Try again later.` });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <tr data-programme={p.id} data-state={p.state}>
      <td style={{ whiteSpace: "nowrap" }}>{p.deviceSn}</td>
      <td>
        {t`${pattern}, ${strategy}`}
        <div className="muted">{eyes}</div>
      </td>
      <td>
        {frequency}
        <div className="muted">{t`${start} to ${end}, reminder at ${time}`}</div>
        <div className="muted" data-reminder-email>
          {reminderEmail ? t`Reminders to ${reminderEmail}` : t`No reminder e-mail`}
        </div>
      </td>
      <td>
        <Adherence programmeId={p.id} />
      </td>
      <td>
        {p.state === "active" ? (
          <div className="stack">
            <span>{t`Active`}</span>
            <button type="button" className="btn" onClick={() => setConfirming(true)}>{t`Headset returned`}</button>
          </div>
        ) : (
          <>
            {i18n._(endWords[p.endedReason ?? "ended"])}
            {p.endedAt && <div className="muted">{format.date(p.endedAt)}</div>}
          </>
        )}
        {confirming && (
          <ConfirmDialog
            title={t`Headset returned?`}
            confirmLabel={t`End the programme`}
            busy={busy}
            onCancel={() => setConfirming(false)}
            onConfirm={() => void returned()}
          >
            <p>{t`The programme on headset ${serial} ends now. The headset can see and upload nothing more of this patient.`}</p>
          </ConfirmDialog>
        )}
      </td>
    </tr>
  );
}

/** Sessions due, done and missed, and the rate (core/home adherence, read on the server). */
function Adherence({ programmeId }: { programmeId: string }) {
  const { t } = useLingui();
  const a = useRead("home.adherence", { query: { id: programmeId } });
  if (a.status === "loading") return <Skeleton kind="fields" count={1} />;
  if (a.status === "error") return <span className="muted">{t`Not available`}</span>;
  const { due, done, missed } = a.data;
  const rate = a.data.rate === null ? null : Math.round(a.data.rate * 100);
  return (
    <div data-adherence={programmeId}>
      <div>{t`${done} of ${due} sessions done, ${missed} missed`}</div>
      <div className="muted">{rate === null ? t`No session due yet` : t`Adherence ${rate} %`}</div>
    </div>
  );
}
