import { useRouteError } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";

/** Top-level fallback: "An error has occurred" (accounts seed §8) with a hint what to do next. */
export function ErrorPage() {
  const { t } = useLingui();
  const error = useRouteError();
  if (error) console.debug(error);
  return (
    <main className="center-page">
      <div className="card auth-card" role="alert">
        <h1>{t`An error has occurred`}</h1>
        <p>{t`Something went wrong. Try again or refresh the browser.`}</p>
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>{t`Refresh the page`}</button>
          <a className="btn" href="/home">{t`Go to the home page`}</a>
        </div>
      </div>
    </main>
  );
}
