import { useState, type FormEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Role } from "../../../core/model/enums.ts";
import type { User } from "../../../core/model/user.ts";
import { isApiError } from "../../../core/model/contract/index.ts";
import { isValidEmail } from "../../../core/rules/email.ts";
import { roleHints, roleNames } from "../../i18n/names.ts";
import { useCache, useClient } from "../../state/client.ts";
import { useIsManager, useTokenPayload } from "../../state/session.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { useNotify } from "../../ui/notifications.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { Select } from "../../ui/Select.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { useTitle } from "../../ui/useTitle.ts";
import { HeadsetsSection } from "./HeadsetsSection.tsx";
import { AuditSection } from "./AuditSection.tsx";
import { SingleSignOnSection } from "./SingleSignOnSection.tsx";
import { TwoStepSection } from "./TwoStepSection.tsx";
import { deleteRefusal, grantableRoles, roleChangeRefusal } from "../../../core/rules/user-admin.ts";

/** Addresses typed into the invite box: separated by commas, semicolons, spaces or lines; duplicates dropped. */
export const parseEmails = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,;]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
];

/** "Accounts list, invite form, role change, delete. Managers only." (accounts seed §2, §6), and the organisation's
 * headsets (issue 15: enrol, rename, enrol again, revoke). */
export default function UsersPage() {
  const { t } = useLingui();
  useTitle(t`Users`);
  const isManager = useIsManager();
  if (!isManager) {
    return (
      <div className="page">
        <h1>{t`Users`}</h1>
        <div
          className="alert alert-warning"
          role="alert"
        >{t`Only managers can manage users. Ask a manager of your organisation for help.`}</div>
      </div>
    );
  }
  return <ManagerUsers />;
}

function ManagerUsers() {
  const { t, i18n } = useLingui();
  const notify = useNotify();
  const me = useTokenPayload();
  const client = useClient();
  const users = useCache(CacheKey.Users, {});
  const [deleting, setDeleting] = useState<User | null>(null);
  // Only what the server allows is offered (core/rules/user-admin): a manager grants neither takes the admin role,
  // re-roles or deletes neither their own account nor an admin's. The invite form's selector shows each role's hint;
  // the table's compact selectors name the role only.
  const actor = { id: me?.sub ?? "", role: me?.role ?? "user" } as const;
  const roleOptions = grantableRoles(actor.role).map((r) => ({ value: r, label: i18n._(roleNames[r]), hint: i18n._(roleHints[r]) }));
  const roleNamesOnly = roleOptions.map(({ value, label }) => ({ value, label }));

  const changeRole = async (user: User, role: Role) => {
    try {
      await client.users.changeRole(user.id, role);
      notify({ kind: "success", text: t`The role of ${user.email} is now ${i18n._(roleNames[role])}.` });
    } catch {
      notify({ kind: "error", text: t`The role could not be changed. Try again later.` });
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await client.users.remove(deleting.id);
      notify({ kind: "success", text: t`The user was deleted.` });
    } catch {
      notify({ kind: "error", text: t`The user could not be deleted. Try again later.` });
    } finally {
      setDeleting(null);
    }
  };

  return (
    <div className="page stack">
      <h1>{t`Users`}</h1>
      <InviteForm roleOptions={roleOptions} />
      <section className="card" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">{t`Accounts`}</h2>
        {users.status === "loading" && <Skeleton kind="fields" count={3} />}
        {users.status === "error" && (
          <div className="alert alert-error" role="alert">{t`The accounts list cannot be displayed. Try again later.`}</div>
        )}
        {users.status === "success" && users.data.length === 0 && <EmptyState title={t`No accounts yet`} />}
        {users.status === "success" && users.data.length > 0 && (
          <table className="table">
            <thead>
              <tr>
                <th>{t`E-mail`}</th>
                <th>{t`Username`}</th>
                <th>{t`Status`}</th>
                <th>{t`Role`}</th>
                <th>
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => {
                const self = u.email === me?.email;
                const target = { id: self ? actor.id : u.id, role: u.role };
                const canRerole = roleChangeRefusal(actor, target) === null;
                const canDelete = deleteRefusal(actor, target) === null;
                return (
                  <tr key={u.id}>
                    <td>{u.email}</td>
                    <td>{u.username ?? "–"}</td>
                    <td>{u.status === "invited" ? t`Invited` : u.status === "disabled" ? t`Disabled` : t`Active`}</td>
                    <td style={{ minWidth: 220 }}>
                      {!canRerole ? (
                        i18n._(roleNames[u.role])
                      ) : (
                        <Select<Role>
                          label={t`Role of ${u.email}`}
                          hideLabel
                          value={u.role}
                          options={roleNamesOnly}
                          onChange={(r) => void changeRole(u, r)}
                        />
                      )}
                    </td>
                    <td>
                      {canDelete && (
                        <button
                          type="button"
                          className="btn btn-danger"
                          aria-label={t`Delete ${u.email}`}
                          onClick={() => setDeleting(u)}
                        >{t`Delete`}</button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      <SingleSignOnSection />
      <TwoStepSection />
      <HeadsetsSection />
      <AuditSection users={users.status === "success" ? users.data : []} />
      {deleting && (
        <ConfirmDialog
          title={t`Delete ${deleting.email}?`}
          confirmLabel={t`Delete user`}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove()}
        >
          <p>{t`Deleting a user revokes their access to all tests and results in the organisation.`}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function InviteForm({ roleOptions }: { roleOptions: Array<{ value: Role; label: string; hint: string }> }) {
  const { t } = useLingui();
  const client = useClient();
  const [text, setText] = useState("");
  const [role, setRole] = useState<Role>("user");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: "success" | "warning" | "error"; text: string } | null>(null);
  const emails = parseEmails(text);
  const invalid = emails.filter((e) => !isValidEmail(e));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (emails.length === 0 || invalid.length > 0) return;
    setBusy(true);
    try {
      const answer = await client.users.invite(emails, role);
      const skipped = [...answer.alreadyInvited, ...answer.alreadyRegistered];
      setResult(
        skipped.length > 0
          ? {
              kind: "warning",
              text: t`Some users were already invited or registered (${skipped.join(", ")}); invitations went to the others.`,
            }
          : { kind: "success", text: t`Invitations sent.` },
      );
      setText("");
    } catch (error) {
      setResult(
        isApiError(error) && error.isType("already_invited", "already_registered")
          ? { kind: "warning", text: t`All of these users were already invited or registered. No invitation was sent.` }
          : { kind: "error", text: t`The invitations could not be sent. Try again later.` },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">{t`Invite users`}</h2>
      {result && (
        <div className={`alert alert-${result.kind}`} role={result.kind === "success" ? "status" : "alert"}>
          {result.text}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="invite-emails">
            {t`E-mail addresses`}
            <span className="required" aria-hidden="true">
              *
            </span>
          </label>
          <textarea
            id="invite-emails"
            className="input"
            value={text}
            aria-describedby="invite-hint"
            aria-invalid={invalid.length > 0 || undefined}
            onChange={(e) => {
              setText(e.target.value);
              setResult(null);
            }}
          />
          <span id="invite-hint" className="field-hint">{t`Separate several addresses with commas or new lines.`}</span>
          {invalid.length > 0 && <span className="field-error" role="alert">{t`Not a valid e-mail address: ${invalid.join(", ")}`}</span>}
        </div>
        <Select<Role> label={t`Role`} value={role} options={roleOptions} onChange={setRole} />
        <button type="submit" className="btn btn-primary" disabled={busy || emails.length === 0 || invalid.length > 0}>
          {busy ? t`Sending…` : t`Send invitations`}
        </button>
      </form>
    </section>
  );
}
