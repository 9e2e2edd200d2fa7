import { NavLink, Outlet } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useCache } from "../../state/client.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { useTitle } from "../../ui/useTitle.ts";

/** "Tabs for deleted patients and deleted measurements (deleted appointments when the multi-tests plugin is on)." */
export default function BinLayout() {
  const { t } = useLingui();
  useTitle(t`Bin`);
  const organisation = useCache(CacheKey.CurrentOrganisation, {});
  return (
    <div className="page stack">
      <h1>{t`Bin`}</h1>
      <p className="muted">{t`Items in the bin can be restored. Deleting them from here is permanent.`}</p>
      <nav className="tabs" aria-label={t`Bin sections`}>
        <NavLink to="deleted-patients">{t`Deleted patients`}</NavLink>
        <NavLink to="deleted-measurements">{t`Deleted measurements`}</NavLink>
        {organisation.data?.multiTests && <NavLink to="deleted-appointments">{t`Deleted appointments`}</NavLink>}
      </nav>
      <Outlet />
    </div>
  );
}
