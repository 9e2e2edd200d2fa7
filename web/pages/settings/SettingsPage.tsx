import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { isApiError } from "../../../core/model/contract/index.ts";
import { roleNames } from "../../i18n/names.ts";
import { useApi } from "../../state/client.ts";
import { useIsManager, useTokenPayload } from "../../state/session.ts";
import { ImportPanel } from "../../import/ImportPanel.tsx";
import { DicomNetworkSection } from "./dicom/DicomNetworkSection.tsx";
import { SecondFactorSection } from "./SecondFactorSection.tsx";
import { LanguageSelect } from "../../ui/LanguageSelect.tsx";
import { PasswordFields, passwordFormReady, type PasswordValues } from "../../ui/PasswordFields.tsx";
import { useTitle } from "../../ui/useTitle.ts";

type State = "idle" | "saving" | "saved" | "wrong-password" | "error";

/** "Language choice, a card showing the role and logged-in username, a change-password form, and the bin." (accounts seed §2) */
export default function SettingsPage() {
  const { t, i18n } = useLingui();
  useTitle(t`Settings`);
  const api = useApi();
  const payload = useTokenPayload();
  const isManager = useIsManager();
  const empty: PasswordValues = { oldPassword: "", password: "", confirmation: "" };
  const [values, setValues] = useState<PasswordValues>(empty);
  const [state, setState] = useState<State>("idle");
  const ready = passwordFormReady(values);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setState("saving");
    try {
      await api.call("passwordChange", { body: { old_password: values.oldPassword ?? "", new_password: values.password } });
      setState("saved");
      setValues(empty);
    } catch (error) {
      setState(isApiError(error) && error.isType("invalid_credentials") ? "wrong-password" : "error");
    }
  };

  return (
    <div className="page stack">
      <h1>{t`Settings`}</h1>
      <div className="grid-2">
        <section className="card" aria-labelledby="account-heading">
          <h2 id="account-heading">{t`Your account`}</h2>
          <dl>
            <dt className="muted">{t`Username`}</dt>
            <dd style={{ margin: "0 0 var(--space-2)" }}>{payload?.username ?? "–"}</dd>
            <dt className="muted">{t`E-mail`}</dt>
            <dd style={{ margin: "0 0 var(--space-2)" }}>{payload?.email ?? "–"}</dd>
            <dt className="muted">{t`Role`}</dt>
            <dd style={{ margin: 0 }}>{payload ? i18n._(roleNames[payload.role]) : "–"}</dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="language-heading">
          <h2 id="language-heading">{t`Language`}</h2>
          <p className="muted">{t`The interface language is remembered on this computer.`}</p>
          <LanguageSelect />
        </section>
      </div>
      <section className="card" aria-labelledby="password-heading" style={{ maxWidth: 520 }}>
        <h2 id="password-heading">{t`Change password`}</h2>
        {state === "saved" && <div className="alert alert-success" role="status">{t`Your password has been changed.`}</div>}
        {state === "wrong-password" && <div className="alert alert-error" role="alert">{t`The current password is not correct.`}</div>}
        {state === "error" && (
          <div className="alert alert-error" role="alert">{t`The password could not be changed. Try again later.`}</div>
        )}
        <form onSubmit={submit} noValidate>
          {/* Success and error messages clear when fields are edited (accounts seed §4). */}
          <PasswordFields
            values={values}
            onChange={(v) => {
              setValues(v);
              if (state !== "saving") setState("idle");
            }}
          />
          <button type="submit" className="btn btn-primary" disabled={!ready || state === "saving"}>
            {state === "saving" ? t`Saving…` : t`Change password`}
          </button>
        </form>
      </section>
      <SecondFactorSection />
      <section className="card" aria-labelledby="bin-heading">
        <h2 id="bin-heading">{t`Bin`}</h2>
        <p>{t`Deleted patients and measurements stay in the bin until you restore them or delete them for good.`}</p>
        <Link className="btn" to="/bin">{t`Open the bin`}</Link>
      </section>
      {isManager && (
        <section className="card" aria-labelledby="import-heading">
          <h2 id="import-heading">{t`Import results`}</h2>
          <ImportPanel />
        </section>
      )}
      {isManager && <DicomNetworkSection />}
    </div>
  );
}
