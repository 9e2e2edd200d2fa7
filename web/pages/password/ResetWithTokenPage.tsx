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
import { MissingTokenAlert } from "./MissingTokenAlert.tsx";

/** "After success the user is sent to login after 3 s." (accounts seed §2) */
export const resetRedirectMs = 3000;

/** "checking": the link's token is being checked (passwordReset.check) before the form shows. */
type State = "checking" | "idle" | "saving" | "done" | "expired" | "invalid" | "error";

/** How a refused link reads: expired or used ("401 link expired", accounts seed §7), or not a reset link of ours. */
const refusal = (error: unknown): "expired" | "invalid" | null =>
  !isApiError(error)
    ? null
    : error.isType("token_verification_error")
      ? "invalid"
      : error.status === 401 || error.isType("token_expired")
        ? "expired"
        : null;

export default function ResetWithTokenPage() {
  const { t } = useLingui();
  useTitle(t`Choose a new password`);
  const token = useParams().temporaryToken?.trim() || null;
  const api = useApi();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [values, setValues] = useState<PasswordValues>({ password: "", confirmation: "" });
  const [state, setState] = useState<State>(token ? "checking" : "idle");

  // "Expired token: an expired-link message asking for a new request" (accounts seed §2): said when the page opens,
  // not once the form is filled in (issue 21). The check only reads; when it cannot answer (no network, a server
  // fault) the form shows and saving tells.
  useEffect(() => {
    if (!token) return;
    let live = true;
    setState("checking");
    api.call("passwordReset.check", { token }).then(
      () => live && setState("idle"),
      (error: unknown) => live && setState(refusal(error) ?? "idle"),
    );
    return () => {
      live = false;
    };
  }, [api, token]);

  useEffect(() => {
    if (state !== "done") return;
    const timer = setTimeout(() => navigate("/login", { replace: true }), resetRedirectMs);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  if (!token) {
    return (
      <main className="center-page">
        <div className="card auth-card">
          <h1>{t`Reset your password`}</h1>
          <MissingTokenAlert />
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
        token,
        body: { email: email.trim(), token, password: values.password },
      });
      setState("done");
    } catch (error) {
      // "401 link expired" (accounts seed §7): the link may have expired while the form was filled in.
      setState(refusal(error) ?? "error");
    }
  };

  return (
    <main className="center-page">
      <div className="card auth-card">
        <h1>{t`Choose a new password`}</h1>
        {state === "done" && (
          <div className="alert alert-success" role="status">{t`Your password has been changed. Taking you to the login page…`}</div>
        )}
        {state === "checking" && (
          <p className="muted" role="status">
            {t`Checking the reset link…`}
          </p>
        )}
        {(state === "expired" || state === "invalid") && (
          <div className="alert alert-error" role="alert" data-testid="reset-link-refused">
            <p>
              {state === "expired"
                ? t`This reset link has expired or has been used already. Request a new one.`
                : t`This reset link is not valid. Open the link from the e-mail again, or request a new one.`}
            </p>
            <Link to="/password-reset">{t`Request a new link`}</Link>
          </div>
        )}
        {state === "error" && (
          <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>
        )}
        {(state === "idle" || state === "saving" || state === "error") && (
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
