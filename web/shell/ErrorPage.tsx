import { useRouteError } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";

/** Top-level fallback: "An error has occurred" (accounts seed §8) with a hint what to do next. */
export function ErrorPage() {
  const { t } = useLingui();
  const error = useRouteError();
  if (error) console.debug(error);
  // A lazy page that could not be downloaded: "Some page elements could not load" (accounts seed §8).
  const chunkFailed =
    error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message);
  return (
    <main className="center-page">
      <div className="card auth-card" role="alert">
        <h1>{t`An error has occurred`}</h1>
        <p>
          {chunkFailed
            ? t`Some page elements could not load. Check your internet connection, then refresh the page.`
            : t`Something went wrong. Try again or refresh the browser.`}
        </p>
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>{t`Refresh the page`}</button>
          <a className="btn" href="/home">{t`Go to the home page`}</a>
        </div>
      </div>
    </main>
  );
}
