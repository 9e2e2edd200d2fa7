import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { searchDebounceMs, useDebounced } from "../state/debounce.ts";
import { usePatientSearch } from "../state/patient-search.ts";
import { useDateFormat } from "../i18n/format.ts";
import type { Patient } from "../../core/model/patient.ts";
import { SearchBox } from "../ui/SearchBox.tsx";

/**
 * The measurement form's patient selector: "search with infinite paging" (POST patient/search, "paging continues
 * while remaining > 0", "input debounced 500 ms"), the same search list core/client keeps for the home page. The next
 * page loads when the end of the list scrolls into view, or with the button at its end.
 */
export function PatientPicker({ onPick }: { onPick: (patient: Patient) => void }) {
  const { t } = useLingui();
  const { date } = useDateFormat();
  const [text, setText] = useState("");
  const filter = { name: useDebounced(text.trim(), searchDebounceMs), birthdate: null };
  const { results, failed, loadingMore, loadMore, sentinel } = usePatientSearch(filter);

  return (
    <div className="span-2">
      <SearchBox label={t`Search patients by name or ID`} placeholder={t`Search patients by name or ID`} value={text} onChange={setText} />
      {failed && <p className="field-error" role="alert">{t`Patients could not be loaded. Try again.`}</p>}
      {results === null && !failed && <p className="muted" role="status">{t`Loading…`}</p>}
      {results !== null && results.entries.length === 0 && <p className="muted">{t`No patient matches this search.`}</p>}
      {results !== null && results.entries.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the list is a listbox of patients to pick (its items are presentation, each button an option)
        <ul className="patient-picker-list" role="listbox" aria-label={t`Patients`}>
          {results.entries.map((p) => (
            <li key={p.id} role="presentation">
              <button type="button" role="option" aria-selected={false} onClick={() => onPick(p)}>
                <strong>{p.name}</strong>
                <span className="muted">
                  {p.uniqueId} · {date(p.birthdate)}
                </span>
              </button>
            </li>
          ))}
          {results.remaining > 0 && (
            <li ref={sentinel} role="presentation">
              <button type="button" onClick={() => void loadMore()} disabled={loadingMore}>
                {loadingMore ? t`Loading…` : t`Show more patients`}
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
