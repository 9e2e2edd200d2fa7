import { useLingui } from "@lingui/react/macro";
import { EmptyState } from "../../ui/EmptyState.tsx";

// Measurement templates are web part 2 (scheduling seed); this route exists so links resolve.
export default function TemplatesPage() {
  const { t } = useLingui();
  return (
    <div className="page">
      <h1>{t`Templates`}</h1>
      <EmptyState title={t`Templates are not available in this version yet.`} hint={t`They come with the next part of the web app.`} />
    </div>
  );
}
