import { useCallback, useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { ResponseOf } from "../../../core/model/contract/index.ts";
import { useApi } from "../../state/client.ts";
import { ConfirmDialog } from "../../ui/Modal.tsx";
import { useNotify } from "../../ui/notifications.ts";

// Who has two-step sign-in (issue 33 item 2), for managers: a user who lost both the phone and the recovery codes gets
// theirs reset here, then signs in with the password (and sets it up again where the organisation requires it).

type Enrolled = ResponseOf<"secondFactor.users">[number];

export function TwoStepSection() {
  const { t } = useLingui();
  const api = useApi();
  const notify = useNotify();
  const [users, setUsers] = useState<readonly Enrolled[] | "error" | null>(null);
  const [resetting, setResetting] = useState<Enrolled | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      setUsers(await api.call("secondFactor.users", {}));
    } catch {
      setUsers("error");
    }
  }, [api]);
  useEffect(() => void load(), [load]);

  const reset = async () => {
    if (!resetting) return;
    setBusy(true);
    try {
      await api.call("secondFactor.reset", { query: { id: resetting.id } });
      notify({ kind: "success", text: t`Two-step sign-in of ${resetting.email} was reset.` });
    } catch {
      notify({ kind: "error", text: t`Two-step sign-in could not be changed. Try again later.` });
    }
    setBusy(false);
    setResetting(null);
    await load();
  };

  return (
    <section className="card" aria-labelledby="two-step-heading">
      <h2 id="two-step-heading">{t`Two-step sign-in`}</h2>
      {users === "error" && <div className="alert alert-error" role="alert">{t`The list cannot be displayed. Try again later.`}</div>}
      {Array.isArray(users) && users.length === 0 && <p className="muted">{t`Nobody has set up two-step sign-in yet.`}</p>}
      {Array.isArray(users) && users.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t`E-mail`}</th>
              <th scope="col">{t`Recovery codes left`}</th>
              <th scope="col">
                <span className="visually-hidden">{t`Actions`}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td style={{ overflowWrap: "anywhere" }}>{u.email}</td>
                <td>{u.recoveryCodesLeft}</td>
                <td>
                  <button
                    type="button"
                    className="btn"
                    aria-label={t`Reset two-step sign-in of ${u.email}`}
                    onClick={() => setResetting(u)}
                  >
                    {t`Reset`}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {resetting && (
        <ConfirmDialog
          title={t`Reset two-step sign-in of ${resetting.email}?`}
          confirmLabel={t`Reset`}
          danger
          busy={busy}
          onCancel={() => setResetting(null)}
          onConfirm={() => void reset()}
        >
          <p>{t`Do this only when you are sure who asks: their password alone will sign them in until they set it up again.`}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
