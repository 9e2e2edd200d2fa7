import { useEffect, useRef } from "react";
import { useLingui } from "@lingui/react/macro";

// After a Save the form refused: the problems at the top of the card, each naming its field and linking to it (the
// link moves the focus into the field), focused itself so a screen reader reads it first (design/ui.md: "error
// summaries that name the field").

export interface SummaryEntry {
  /** The input's element id. */
  readonly inputId: string;
  readonly label: string;
  readonly message: string;
}

export function ErrorSummary({ entries, attempt }: { entries: readonly SummaryEntry[]; attempt: number }) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  // Each refused Save brings the summary into focus again.
  useEffect(() => {
    if (attempt > 0) box.current?.focus();
  }, [attempt]);
  if (entries.length === 0) return null;
  return (
    <div ref={box} className="alert alert-error dicom-summary" role="alert" tabIndex={-1}>
      <p className="dicom-summary-title">{t`There is a problem`}</p>
      <ul>
        {entries.map((e) => (
          <li key={e.inputId}>
            <a
              href={`#${e.inputId}`}
              onClick={(event) => {
                event.preventDefault();
                document.getElementById(e.inputId)?.focus();
              }}
            >
              {e.label}: {e.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
