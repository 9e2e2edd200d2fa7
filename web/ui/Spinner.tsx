import { useLingui } from "@lingui/react/macro";

export function Spinner() {
  const { t } = useLingui();
  return (
    <div className="spinner-page" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t`Loading…`}</span>
    </div>
  );
}
