import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { CacheKey } from "../../core/client/cache-keys.ts";
import { useClient, useCache } from "../state/client.ts";
import { searchDebounceMs, useDebounced } from "../state/debounce.ts";
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
  const client = useClient();
  const { date } = useDateFormat();
  const [text, setText] = useState("");
  const filter = { name: useDebounced(text.trim(), searchDebounceMs), birthdate: null };
  const search = useCache(CacheKey.PatientSearch, filter);
  const results = search.data ?? null;
  const [moreFailed, setMoreFailed] = useState(false);
  // A failed read of the search, shown even when an earlier answer stays on screen.
  const failed = search.error !== undefined || moreFailed;
  const [loadingMore, setLoadingMore] = useState(false);
  const sentinel = useRef<HTMLLIElement>(null);

  const loadMore = async () => {
    if (!results || results.remaining <= 0 || loadingMore) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      await client.patients.nextSearchPage(filter);
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  };

  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    });
    observer.observe(node);
    return () => observer.disconnect();
  });

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
