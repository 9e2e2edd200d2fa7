import { useLingui } from "@lingui/react/macro";
import { EmptyState } from "../../ui/EmptyState.tsx";

// The technician view (device lanes, live tests) is web part 2 (scheduling seed); this route exists so links resolve.
export default function TechnicianPage() {
  const { t } = useLingui();
  return (
    <div className="page">
      <h1>{t`Technician`}</h1>
      <EmptyState title={t`The technician view is not available in this version yet.`} hint={t`Device lanes and live tests come with the next part of the web app.`} />
    </div>
  );
}
