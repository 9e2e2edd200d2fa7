import { lazy, Suspense, useState, type FormEvent } from "react";
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { useStore } from "jotai";
import { useLingui } from "@lingui/react/macro";
import { validateLogin } from "../../../core/rules/login.ts";
import { ruleDescriptor } from "../../i18n/rule-messages.ts";
import { loadClient, useAccessToken } from "../../state/lazy-client.ts";
import { LOGIN_PROVIDER_ONLY, LOGIN_SERVER_ERROR } from "../../../core/client/session.ts";
import { TextInput } from "../../ui/TextInput.tsx";
import { LanguageSelect } from "../../ui/LanguageSelect.tsx";
import { useTitle } from "../../ui/useTitle.ts";
import { afterLoginPath } from "../../shell/after-login.ts";
import { rememberedOrganisation } from "./remembered-organisation.ts";

/** "Sign in with <provider>" on an organisation's login link /login/<organisation> (issue 33 item 1), loaded only there. */
const SingleSignOn = lazy(() => import("./SingleSignOn.tsx"));

/** The second step of a login with a second factor (issue 33 item 2): loaded only when a login asks for it. */
const SecondFactorStep = lazy(() => import("./SecondFactorStep.tsx"));

export default function LoginPage() {
  const { t } = useLingui();
  useTitle(t`Log in`);
  const token = useAccessToken();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const store = useStore();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  // Why the last login failed: the credentials, or the server (accounts seed §8 "Login server error").
  // Or the organisation signs in through its identity provider only (issue 33).
  const [failed, setFailed] = useState<false | "credentials" | "server" | "provider">(false);
  const [touched, setTouched] = useState(false);
  // The login link's organisation, or on /login the one this tab signed in through (an ended session lands here).
  const { organisation = rememberedOrganisation() } = useParams();
  // The organisation has turned password login off (administrators open the form from SingleSignOn).
  const [passwordHidden, setPasswordHidden] = useState(false);
  const [secondStep, setSecondStep] = useState(false);

  // "It redirects home when a token already exists." (accounts seed §2)
  if (token && !busy) return <Navigate to={afterLoginPath(location.state)} replace />;

  const errors = validateLogin({ username, password });
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setFailed(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (errors.username || errors.password) return;
    setBusy(true);
    // The login goes through core/client like every call; its code downloads now unless a session loaded it already
    // (issue 18 §5: /login's first paint carries none of it). Not getting it is a failure on the server's side.
    const session = await loadClient(store).then(
      (client) => client.session,
      () => null,
    );
    if (session && (await session.login(username.trim(), password))) {
      navigate(afterLoginPath(location.state), { replace: true });
    } else if (session?.secondFactor.pending) {
      setSecondStep(true);
      setBusy(false);
    } else {
      const error = session?.state.loginError;
      setFailed(!session || error === LOGIN_SERVER_ERROR ? "server" : error === LOGIN_PROVIDER_ONLY ? "provider" : "credentials");
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <div className="card auth-card">
        <p className="brand">Isopter</p>
        <h1>{t`Log in`}</h1>
        {params.get("sessionExpired") && (
          <div className="alert alert-warning" role="status">{t`Your session has expired, please log in again.`}</div>
        )}
        {failed && (
          <div className="alert alert-error" role="alert">
            <strong>{t`Login failed.`}</strong>{" "}
            {failed === "server"
              ? t`An error occurred during login. Try again in a moment; if it keeps happening, contact support.`
              : failed === "provider"
                ? t`Your organisation signs in through its identity provider: use its login link. Administrators can still log in with their password.`
                : t`Check your username and password. If they are right, try again in a minute.`}
          </div>
        )}
        {secondStep && (
          <Suspense fallback={null}>
            <SecondFactorStep
              onDone={() => navigate(afterLoginPath(location.state), { replace: true })}
              onClosed={() => {
                setSecondStep(false);
                setPassword("");
              }}
            />
          </Suspense>
        )}
        {organisation && (
          <Suspense fallback={null}>
            <SingleSignOn organisation={organisation} onPasswordHidden={setPasswordHidden} />
          </Suspense>
        )}
        <form onSubmit={submit} noValidate aria-busy={busy} hidden={secondStep || passwordHidden}>
          <TextInput
            label={t`Username`}
            value={username}
            onChange={edit(setUsername)}
            required
            autoComplete="username"
            error={touched ? ruleDescriptor(errors.username) : undefined}
          />
          <TextInput
            label={t`Password`}
            type="password"
            value={password}
            onChange={edit(setPassword)}
            required
            autoComplete="current-password"
            error={touched ? ruleDescriptor(errors.password) : undefined}
          />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t`Logging in…` : t`Log in`}
            </button>
            <span className="spacer" />
            <Link to="/password-reset">{t`Forgot your password?`}</Link>
          </div>
        </form>
        <hr />
        <LanguageSelect />
      </div>
    </main>
  );
}
