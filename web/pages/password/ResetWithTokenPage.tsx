import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { isApiError } from "../../../core/model/contract/index.ts";
import { isValidEmail } from "../../../core/rules/email.ts";
import { ruleDescriptor } from "../../i18n/rule-messages.ts";
import { message } from "../../../core/rules/messages.ts";
import { useApi } from "../../state/client.ts";
import { TextInput } from "../../ui/TextInput.tsx";
import { PasswordFields, passwordFormReady, type PasswordValues } from "../../ui/PasswordFields.tsx";
import { useTitle } from "../../ui/useTitle.ts";

/** "After success the user is sent to login after 3 s." (accounts seed §2) */
export const resetRedirectMs = 3000;

type State = "idle" | "saving" | "done" | "expired" | "error";

export default function ResetWithTokenPage() {
  const { t } = useLingui();
  useTitle(t`Choose a new password`);
  const { temporaryToken } = useParams();
  const api = useApi();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [values, setValues] = useState<PasswordValues>({ password: "", confirmation: "" });
  const [state, setState] = useState<State>("idle");

  useEffect(() => {
    if (state !== "done") return;
    const timer = setTimeout(() => navigate("/login", { replace: true }), resetRedirectMs);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  if (!temporaryToken) {
    return (
      <main className="center-page">
        <div className="card auth-card" role="alert">
          <h1>{t`Reset your password`}</h1>
          <p>{t`The reset link has no token. Open the link from the e-mail again, or request a new one.`}</p>
          <Link className="btn btn-primary" to="/password-reset">{t`Request a new link`}</Link>
        </div>
      </main>
    );
  }

  const emailOk = isValidEmail(email);
  const ready = emailOk && passwordFormReady(values);
  const edit = () => {
    if (state === "error") setState("idle");
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setState("saving");
    try {
      await api.call("passwordReset.confirm", {
        token: temporaryToken,
        body: { email: email.trim(), token: temporaryToken, password: values.password },
      });
      setState("done");
    } catch (error) {
      // "401 link expired" (accounts seed §7)
      setState(isApiError(error) && (error.status === 401 || error.isType("token_expired")) ? "expired" : "error");
    }
  };

  return (
    <main className="center-page">
      <div className="card auth-card">
        <h1>{t`Choose a new password`}</h1>
        {state === "done" && (
          <div className="alert alert-success" role="status">{t`Your password has been changed. Taking you to the login page…`}</div>
        )}
        {state === "expired" && (
          <div className="alert alert-error" role="alert">
            <p>{t`This reset link has expired. Request a new one.`}</p>
            <Link to="/password-reset">{t`Request a new link`}</Link>
          </div>
        )}
        {state === "error" && (
          <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>
        )}
        {state !== "done" && state !== "expired" && (
          <form onSubmit={submit} noValidate>
            <TextInput
              label={t`E-mail`}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(v) => {
                setEmail(v);
                edit();
              }}
              error={email !== "" && !emailOk ? ruleDescriptor(message("emailInvalid")) : undefined}
            />
            <PasswordFields
              values={values}
              onChange={(v) => {
                setValues(v);
                edit();
              }}
            />
            <button type="submit" className="btn btn-primary" disabled={!ready || state === "saving"}>
              {state === "saving" ? t`Saving…` : t`Save the new password`}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
