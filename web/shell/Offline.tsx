import { useLingui } from "@lingui/react/macro";

/** Shown instead of the page while the browser has been offline for 2 s; it disappears as soon as the network returns. */
export function Offline() {
  const { t } = useLingui();
  return (
    <main className="center-page">
      <div className="card auth-card" role="alert">
        <h1>{t`No internet connection`}</h1>
        <p>{t`Check your network cable or Wi-Fi. This page reloads by itself when the connection is back.`}</p>
      </div>
    </main>
  );
}
