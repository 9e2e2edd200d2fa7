import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { isApiError } from "../../../core/model/contract/index.ts";
import { isValidSerial } from "../../../core/device/enrolment.ts";
import type { EnrolmentIssued, EnrolmentSecretKind, HeadsetEnrolment } from "../../../core/model/enrolment.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useApi, useClient } from "../../state/client.ts";
import { useRead } from "../../state/use-read.ts";
import { useNotify } from "../../ui/notifications.ts";
import { ConfirmDialog, Modal } from "../../ui/Modal.tsx";
import { Select } from "../../ui/Select.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";

// Headsets in the users/admin area (issue 15, point 1; managers only): the organisation's headsets with their enrolment
// state; enrol a serial (device credential or one-time pairing code, shown once), rename, enrol again, revoke. The
// list is read again every few seconds while it is shown, so a headset pairing, connecting or dropping out shows
// without a reload (enrolment changes are not live events).

const REFRESH_MS = 3_000;

export function HeadsetsSection() {
  const { t } = useLingui();
  const client = useClient();
  const list = useRead("device.enrolments", {});
  const reload = useCallback(() => void client.reads.reload("device.enrolments"), [client]);
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const [issued, setIssued] = useState<EnrolmentIssued | null>(null);
  const [reenrolling, setReenrolling] = useState<HeadsetEnrolment | null>(null);
  const [revoking, setRevoking] = useState<HeadsetEnrolment | null>(null);
  const onIssued = (answer: EnrolmentIssued) => {
    setIssued(answer);
    reload();
  };

  return (
    <section className="card stack" aria-labelledby="headsets-heading">
      <h2 id="headsets-heading">{t`Headsets`}</h2>
      <p className="field-hint">{t`A headset connects only after it has been enrolled here. Revoking a headset disconnects it at once.`}</p>
      <EnrolForm onIssued={onIssued} />
      {list.status === "loading" && <Skeleton kind="fields" count={2} />}
      {list.status === "error" && (
        <div className="alert alert-error" role="alert">{t`The headsets cannot be displayed. Try again later.`}</div>
      )}
      {list.status === "success" && list.data.length === 0 && <EmptyState title={t`No headsets yet`} />}
      {list.status === "success" && list.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>{t`Serial number`}</th>
              <th>{t`Name`}</th>
              <th>{t`Enrolment`}</th>
              <th>{t`Connection`}</th>
              <th>
                <span className="visually-hidden">{t`Actions`}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((h) => (
              <HeadsetRow key={h.id} headset={h} onRenamed={reload} onReenrol={() => setReenrolling(h)} onRevoke={() => setRevoking(h)} />
            ))}
          </tbody>
        </table>
      )}
      {issued && <SecretDialog issued={issued} onClose={() => setIssued(null)} />}
      {reenrolling && (
        <ReenrolDialog headset={reenrolling} onClose={() => setReenrolling(null)} onIssued={(a) => (setReenrolling(null), onIssued(a))} />
      )}
      {revoking && <RevokeDialog headset={revoking} onClose={() => setRevoking(null)} onRevoked={() => (setRevoking(null), reload())} />}
    </section>
  );
}

function useSecretOptions() {
  const { t } = useLingui();
  return [
    {
      value: "pairingCode" as const,
      label: t`One-time pairing code`,
      hint: t`Typed on the headset, which exchanges it for its credential; valid for one hour.`,
    },
    { value: "credential" as const, label: t`Device credential`, hint: t`Installed on the headset as it is.` },
  ];
}

function EnrolForm({ onIssued }: { onIssued: (answer: EnrolmentIssued) => void }) {
  const { t } = useLingui();
  const api = useApi();
  const [serial, setSerial] = useState("");
  const [alias, setAlias] = useState("");
  const [secret, setSecret] = useState<EnrolmentSecretKind>("pairingCode");
  const options = useSecretOptions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const badSerial = serial.trim() !== "" && !isValidSerial(serial.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (serial.trim() === "" || badSerial) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.call("device.enrol", {
        body: { deviceSn: serial.trim(), ...(alias.trim() ? { alias: alias.trim() } : {}), secret },
      });
      setSerial("");
      setAlias("");
      onIssued(answer);
    } catch (e) {
      setError(
        isApiError(e) && e.isType("conflict")
          ? t`This serial number is already enrolled, here or with another organisation. To give one of your headsets a new credential, enrol it again from the list.`
          : t`The headset could not be enrolled. Try again later.`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Enrol a headset`}>
      <h3>{t`Enrol a headset`}</h3>
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      <div className="field">
        <label htmlFor="enrol-serial">
          {t`Serial number`}
          <span className="required" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id="enrol-serial"
          className="input"
          value={serial}
          autoComplete="off"
          aria-invalid={badSerial || undefined}
          onChange={(e) => {
            setSerial(e.target.value);
            setError(null);
          }}
        />
        {badSerial && (
          <span className="field-error" role="alert">{t`Letters, digits, dots, dashes or underscores only (at most 64).`}</span>
        )}
      </div>
      <div className="field">
        <label htmlFor="enrol-alias">{t`Name (optional)`}</label>
        <input id="enrol-alias" className="input" value={alias} maxLength={64} onChange={(e) => setAlias(e.target.value)} />
      </div>
      <Select<EnrolmentSecretKind> label={t`The headset proves itself with`} value={secret} options={options} onChange={setSecret} />
      <button type="submit" className="btn btn-primary" disabled={busy || serial.trim() === "" || badSerial}>
        {busy ? t`Enrolling…` : t`Enrol headset`}
      </button>
    </form>
  );
}

function HeadsetRow({
  headset: h,
  onRenamed,
  onReenrol,
  onRevoke,
}: {
  headset: HeadsetEnrolment;
  onRenamed: () => void;
  onReenrol: () => void;
  onRevoke: () => void;
}) {
  const { t } = useLingui();
  const api = useApi();
  const notify = useNotify();
  const dates = useDateFormat();
  const [name, setName] = useState<string | null>(null);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    const alias = (name ?? "").trim();
    if (alias === "") return; // "The device alias form sends only a non-empty alias." (scheduling §5)
    try {
      await api.call("device.update", { query: { id: h.id }, body: { alias } });
      setName(null);
      onRenamed();
    } catch {
      notify({ kind: "error", text: t`The headset could not be renamed. Try again later.` });
    }
  };
  const state = {
    enrolled: t`Enrolled`,
    pairing: h.pairingExpiresAt ? t`Waiting for pairing (code valid until ${dates.dateTime(h.pairingExpiresAt)})` : t`Waiting for pairing`,
    revoked: t`Revoked`,
    "not-enrolled": t`Not enrolled`,
  }[h.state];

  return (
    <tr data-serial={h.deviceSn}>
      <td>
        <code>{h.deviceSn}</code>
      </td>
      <td>
        {name === null ? (
          h.alias
        ) : (
          <form onSubmit={rename} className="row">
            <label className="visually-hidden" htmlFor={`alias-${h.id}`}>{t`Name of ${h.deviceSn}`}</label>
            {/* biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename; focus goes where they asked */}
            <input id={`alias-${h.id}`} className="input" value={name} maxLength={64} autoFocus onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="btn btn-primary" disabled={name.trim() === ""}>{t`Save`}</button>
            <button type="button" className="btn" onClick={() => setName(null)}>{t`Cancel`}</button>
          </form>
        )}
      </td>
      <td>{state}</td>
      <td>{h.connection === "CONNECTED" ? t`Connected` : t`Not connected`}</td>
      <td className="row">
        {name === null && (
          <button type="button" className="btn" aria-label={t`Rename ${h.deviceSn}`} onClick={() => setName(h.alias)}>{t`Rename`}</button>
        )}
        <button type="button" className="btn" aria-label={t`Enrol again: ${h.deviceSn}`} onClick={onReenrol}>{t`Enrol again`}</button>
        {h.state !== "revoked" && (
          <button type="button" className="btn btn-danger" aria-label={t`Revoke ${h.deviceSn}`} onClick={onRevoke}>{t`Revoke`}</button>
        )}
      </td>
    </tr>
  );
}

/** The secret, once: the server keeps only its hash, so closing this dialog loses it for good. */
function SecretDialog({ issued, onClose }: { issued: EnrolmentIssued; onClose: () => void }) {
  const { t } = useLingui();
  const dates = useDateFormat();
  const sn = issued.headset.deviceSn;
  const pairing = issued.secret.kind === "pairingCode";
  return (
    <Modal
      title={pairing ? t`Pairing code for ${sn}` : t`Device credential for ${sn}`}
      onClose={onClose}
      closeButton={false}
      actions={<button type="button" className="btn btn-primary" onClick={onClose}>{t`Done`}</button>}
    >
      <p>
        {pairing
          ? t`Type this code on the headset when it asks for one. It works once, until ${dates.dateTime(issued.secret.expiresAt ?? "")}.`
          : t`Install this credential on the headset.`}
      </p>
      <p>
        <code className="secret" data-testid="enrolment-secret" style={{ fontSize: "1.25rem", wordBreak: "break-all", userSelect: "all" }}>
          {issued.secret.value}
        </code>
      </p>
      <div className="alert alert-warning" role="alert">{t`It is shown only this once: Isopter keeps no copy it could show again.`}</div>
    </Modal>
  );
}

function ReenrolDialog({
  headset,
  onClose,
  onIssued,
}: {
  headset: HeadsetEnrolment;
  onClose: () => void;
  onIssued: (a: EnrolmentIssued) => void;
}) {
  const { t } = useLingui();
  const api = useApi();
  const notify = useNotify();
  const [secret, setSecret] = useState<EnrolmentSecretKind>("pairingCode");
  const [busy, setBusy] = useState(false);
  const options = useSecretOptions();
  const confirm = async () => {
    setBusy(true);
    try {
      onIssued(await api.call("device.reenrol", { query: { id: headset.id }, body: { secret } }));
    } catch {
      notify({ kind: "error", text: t`The headset could not be enrolled. Try again later.` });
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={t`Enrol ${headset.deviceSn} again?`}
      confirmLabel={t`Enrol again`}
      busy={busy}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    >
      <p>{t`Its current credential stops working at once and a connected headset is disconnected until it presents the new one.`}</p>
      <Select<EnrolmentSecretKind> label={t`The headset proves itself with`} value={secret} options={options} onChange={setSecret} />
    </ConfirmDialog>
  );
}

function RevokeDialog({ headset, onClose, onRevoked }: { headset: HeadsetEnrolment; onClose: () => void; onRevoked: () => void }) {
  const { t } = useLingui();
  const api = useApi();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await api.call("device.revoke", { query: { id: headset.id } });
      notify({ kind: "success", text: t`${headset.deviceSn} was revoked.` });
      onRevoked();
    } catch {
      notify({ kind: "error", text: t`The headset could not be revoked. Try again later.` });
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={t`Revoke ${headset.deviceSn}?`}
      confirmLabel={t`Revoke headset`}
      danger
      busy={busy}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    >
      <p>{t`The headset is disconnected at once and cannot connect again until it is enrolled again. Its queued tests stay in its lane.`}</p>
    </ConfirmDialog>
  );
}
