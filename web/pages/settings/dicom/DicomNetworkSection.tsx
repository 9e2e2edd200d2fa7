import { useLingui } from "@lingui/react/macro";
import { useRead } from "../../../state/use-read.ts";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { PacsCard } from "./PacsCard.tsx";
import { WorklistCard } from "./WorklistCard.tsx";
import "../../../import/import.css";
import "./dicom.css";

// "DICOM network" in settings, for managers (issue 29 §3): the organisation's worklist provider (orders in) and PACS
// (priors in), one card each. The settings are the dicom/settings read of core/client, the one "Fetch priors" on a
// patient's page reads; each card saves through client.dicom and the read follows.

export function DicomNetworkSection() {
  const { t } = useLingui();
  const settings = useRead("dicom.settings", {});
  return (
    <section className="dicom-section stack" aria-labelledby="dicom-heading" data-testid="dicom-network">
      <div>
        <h2 id="dicom-heading">{t`DICOM network`}</h2>
        <p className="muted dicom-lead">
          {t`The clinic's worklist provider, where orders come from, and its PACS, where earlier visual fields come from. AE titles, hosts and ports are checked before they are saved.`}
        </p>
      </div>
      {settings.status === "loading" && <Skeleton kind="fields" count={3} />}
      {settings.status === "error" && (
        <div className="alert alert-error" role="alert">{t`The DICOM settings cannot be displayed. Try again later.`}</div>
      )}
      {settings.status === "success" && (
        <>
          <WorklistCard saved={settings.data} />
          <PacsCard saved={settings.data} />
        </>
      )}
    </section>
  );
}
