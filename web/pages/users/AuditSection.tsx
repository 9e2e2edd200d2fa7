import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { AuditFilter } from "../../../core/model/audit.ts";
import type { User } from "../../../core/model/user.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useRead } from "../../state/use-read.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";

// The audit trail in the users/admin area (issue 15 §6; managers only): who did what, when, from where, on which
// patient or record; filtered by user, patient, action and days, newest first, in pages. Actions are the API calls'
// names (patient.get, login, perimetry.page for an export), as `isopter audit` prints them.

const PAGE = 25;

/** One text or date filter: blank (or spaces) means no filter. */
function FilterText({
  id,
  label,
  type,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  type?: "date";
  placeholder?: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type={type}
        placeholder={placeholder}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value.trim() === "" ? null : e.target.value.trim())}
      />
    </div>
  );
}

export function AuditSection({ users }: { users: readonly User[] }) {
  const { t } = useLingui();
  const format = useDateFormat();
  const [filter, setFilter] = useState<AuditFilter>({ from: null, to: null, userId: null, patientId: null, action: null });
  const [page, setPage] = useState(0);
  const list = useRead("audit.search", { body: { filter, page, quantity: PAGE } });
  const change = (next: Partial<AuditFilter>) => {
    setFilter({ ...filter, ...next });
    setPage(0);
  };
  const text = (v: string) => (v.trim() === "" ? null : v.trim());
  const pages = list.status === "success" ? Math.max(1, Math.ceil(list.data.total / PAGE)) : 1;
  const outcome = (o: string) => (o === "success" ? t`Done` : t`Refused (${o})`);

  return (
    <section className="card stack" aria-labelledby="audit-heading">
      <h2 id="audit-heading">{t`Audit trail`}</h2>
      <p className="field-hint">{t`Every action in the organisation, reading patient data included, with who did it, when and from which address.`}</p>
      <search className="grid-2" aria-label={t`Filter the audit trail`}>
        <div className="field">
          <label htmlFor="audit-user">{t`User`}</label>
          <select id="audit-user" className="select" value={filter.userId ?? ""} onChange={(e) => change({ userId: text(e.target.value) })}>
            <option value="">{t`All users`}</option>
            {users
              .filter((u) => u.status === "active")
              .map((u) => (
                <option key={u.id} value={u.id}>
                  {u.username ?? u.email}
                </option>
              ))}
          </select>
        </div>
        <FilterText id="audit-patient" label={t`Patient ID`} value={filter.patientId} onChange={(patientId) => change({ patientId })} />
        <FilterText
          id="audit-action"
          label={t`Action`}
          placeholder="patient.get"
          value={filter.action}
          onChange={(action) => change({ action })}
        />
        <div className="grid-2">
          <FilterText id="audit-from" label={t`From`} type="date" value={filter.from} onChange={(from) => change({ from })} />
          <FilterText id="audit-to" label={t`To`} type="date" value={filter.to} onChange={(to) => change({ to })} />
        </div>
      </search>
      {list.status === "loading" && <Skeleton kind="fields" count={3} />}
      {list.status === "error" && (
        <div className="alert alert-error" role="alert">{t`The audit trail cannot be displayed. Try again later.`}</div>
      )}
      {list.status === "success" && list.data.entries.length === 0 && <EmptyState title={t`Nothing recorded for this filter`} />}
      {list.status === "success" && list.data.entries.length > 0 && (
        <table className="table" data-testid="audit-table">
          <thead>
            <tr>
              <th>{t`When`}</th>
              <th>{t`Who`}</th>
              <th>{t`Address`}</th>
              <th>{t`Action`}</th>
              <th>{t`Patient or record`}</th>
              <th>{t`Outcome`}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.entries.map((e) => (
              <tr key={e.id}>
                <td>{format.dateTime(e.at)}</td>
                <td>{e.actorName ?? t`Unknown`}</td>
                <td>{e.address ?? "–"}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>{e.patientId ? t`Patient ${e.patientId}` : e.recordId ? `${e.recordType ?? ""} ${e.recordId}` : "–"}</td>
                <td>
                  {outcome(e.outcome)}
                  {/* The trail's own record of a value it cut or an event it reduced (server words, like the action). */}
                  {e.note && (
                    <div className="muted small" data-testid="audit-note">
                      {t`Note`}: <code>{e.note}</code>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.status === "success" && (
        <nav className="row" aria-label={t`Pages`}>
          <button type="button" className="btn" disabled={page === 0} onClick={() => setPage(page - 1)}>{t`Newer`}</button>
          <span>{t`Page ${page + 1} of ${pages}`}</span>
          <button type="button" className="btn" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>{t`Older`}</button>
        </nav>
      )}
    </section>
  );
}
