import { NavLink, Outlet } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useTitle } from "../../ui/useTitle.ts";

/**
 * /review (issue 31 §2, §3): new home results sorted by need, and the patients whose adherence is below a threshold.
 * In the navigation for every role, as every role reads results.
 */
export default function ReviewLayout() {
  const { t } = useLingui();
  useTitle(t`Review`);
  return (
    <div className="page stack">
      <h1 style={{ margin: 0 }}>{t`Review`}</h1>
      <nav className="tabs" aria-label={t`Review sections`}>
        <NavLink to="/review" end>{t`Home results`}</NavLink>
        <NavLink to="/review/adherence">{t`Adherence`}</NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
