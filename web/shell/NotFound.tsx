import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";

export function NotFound() {
  const { t } = useLingui();
  return (
    <main className="center-page">
      <div className="card auth-card">
        <h1>{t`Sorry, this page does not exist.`}</h1>
        <p>{t`Check the address, or go back to the home page.`}</p>
        <Link className="btn btn-primary" to="/home">{t`Back to the home page`}</Link>
      </div>
    </main>
  );
}
