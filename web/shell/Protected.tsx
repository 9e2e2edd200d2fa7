import { Suspense, useState } from "react";
import { Navigate, NavLink, Outlet, useLocation, useNavigation } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useAccessToken, useIsManager } from "../state/session.ts";
import { useClient, useClientState } from "../state/client.ts";
import { ConfirmDialog } from "../ui/Modal.tsx";
import { Spinner } from "../ui/Spinner.tsx";
import { Offline } from "./Offline.tsx";
import { SupportWidget } from "../pages/support/SupportWidget.tsx";

/** The authenticated wrapper: without a token every protected path goes to /login. */
export function Protected() {
  const token = useAccessToken();
  const offline = useClientState((c) => c.session.offline);
  const location = useLocation();
  // The page asked for comes back after the login (after-login.ts).
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (offline) return <Offline />;
  return <Shell />;
}

function Shell() {
  const { t } = useLingui();
  const isManager = useIsManager();
  const navigation = useNavigation();
  const [confirmLogout, setConfirmLogout] = useState(false);
  const client = useClient();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">{t`Skip to content`}</a>
      <nav className="nav" aria-label={t`Main`}>
        <span className="brand">Isopter</span>
        <NavLink to="/home">{t`Home`}</NavLink>
        <NavLink to="/technician">{t`Technician`}</NavLink>
        <NavLink to="/review">{t`Review`}</NavLink>
        <NavLink to="/templates">{t`Templates`}</NavLink>
        <NavLink to="/settings">{t`Settings`}</NavLink>
        <NavLink to="/bin">{t`Bin`}</NavLink>
        {isManager && <NavLink to="/admin">{t`Users`}</NavLink>}
        <NavLink to="/support">{t`Support`}</NavLink>
        <NavLink to="/users-manual">{t`User manual`}</NavLink>
        <span className="spacer" />
        <button type="button" onClick={() => setConfirmLogout(true)}>{t`Log out`}</button>
      </nav>
      <main id="main" className="main" aria-busy={navigation.state === "loading"}>
        <Suspense fallback={<Spinner />}>{navigation.state === "loading" ? <Spinner /> : <Outlet />}</Suspense>
      </main>
      <SupportWidget />
      {confirmLogout && (
        <ConfirmDialog
          title={t`Log out?`}
          confirmLabel={t`Log out`}
          onCancel={() => setConfirmLogout(false)}
          onConfirm={() => {
            setConfirmLogout(false);
            // A session opened through the provider ends there too (its end-session page, then back to the login link).
            void client.signOn.logout().then((url) => url && window.location.assign(url));
          }}
        >
          <p>{t`You will need your username and password to log in again.`}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
