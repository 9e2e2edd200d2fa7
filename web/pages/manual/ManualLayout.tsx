import { NavLink, Outlet } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useRead } from "../../state/use-read.ts";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { manualDocument } from "./manual-document.ts";
import { useTitle } from "../../ui/useTitle.ts";

/** "The user manual has tabs Part 1 and Part 2 in an embedded document" chosen from the user profile (accounts seed §2). */
export default function ManualLayout() {
  const { t } = useLingui();
  useTitle(t`User manual`);
  const profile = useRead("user.profile", {});
  const doc = profile.status === "success" ? manualDocument(profile.data) : null;
  return (
    <div className="page stack">
      <h1>{t`User manual`}</h1>
      {profile.status === "loading" && <Skeleton kind="blocks" count={1} />}
      {(profile.status === "error" || (profile.status === "success" && !doc)) && (
        <div className="alert alert-error" role="alert">
          {profile.status === "error"
            ? t`Your user profile could not be read, so the right manual cannot be chosen. Try again or refresh the browser.`
            : t`No user manual is available for your organisation's market. Contact support.`}
        </div>
      )}
      {doc && (
        <>
          <nav className="tabs" aria-label={t`Manual parts`}>
            <NavLink to="part-one">{t`Part 1`}</NavLink>
            <NavLink to="part-two">{t`Part 2`}</NavLink>
          </nav>
          <Outlet context={doc} />
        </>
      )}
    </div>
  );
}
