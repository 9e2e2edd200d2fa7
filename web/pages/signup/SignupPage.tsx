import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useApi } from "../../state/client.ts";
import { PasswordFields, passwordFormReady, type PasswordValues } from "../../ui/PasswordFields.tsx";
import { useTitle } from "../../ui/useTitle.ts";

/** "accept an invitation by choosing a password, then go to /login after 1 s" (accounts seed §2) */
export const signupRedirectMs = 1000;

type State = "idle" | "loading" | "success" | "error";

export default function SignupPage() {
  const { t } = useLingui();
  useTitle(t`Create your account`);
  const { invitationId = "", invitationToken = "" } = useParams();
  const api = useApi();
  const navigate = useNavigate();
  const [values, setValues] = useState<PasswordValues>({ password: "", confirmation: "" });
  const [state, setState] = useState<State>("idle");

  useEffect(() => {
    if (state !== "success") return;
    const timer = setTimeout(() => navigate("/login", { replace: true }), signupRedirectMs);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!passwordFormReady(values)) return;
    setState("loading");
    try {
      await api.call("user.signup", { token: invitationToken, body: { invitationId, invitationToken, password: values.password } });
      setState("success");
    } catch {
      setState("error");
    }
  };

  return (
    <main className="center-page">
      <div className="card auth-card">
        <p className="brand">Isopter</p>
        <h1>{t`Create your account`}</h1>
        <p>{t`You have been invited to Isopter. Choose a password to finish your account.`}</p>
        {state === "success" && (
          <div className="alert alert-success" role="status">{t`Your account is ready. Taking you to the login page…`}</div>
        )}
        {state === "error" && (
          <div
            className="alert alert-error"
            role="alert"
          >{t`The invitation could not be accepted. It may have been used or withdrawn; ask your manager for a new one.`}</div>
        )}
        {state !== "success" && (
          <form onSubmit={submit} noValidate>
            <PasswordFields
              values={values}
              onChange={(v) => {
                setValues(v);
                if (state === "error") setState("idle");
              }}
            />
            <div className="row">
              <button type="submit" className="btn btn-primary" disabled={!passwordFormReady(values) || state === "loading"}>
                {state === "loading" ? t`Creating the account…` : t`Create account`}
              </button>
              <span className="spacer" />
              <Link to="/login">{t`Back to login`}</Link>
            </div>
          </form>
        )}
      </div>
    </main>
  );
}
