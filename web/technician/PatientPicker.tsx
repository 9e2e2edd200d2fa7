import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { Patient } from "../../core/model/patient.ts";
import { useApi } from "../state/client.ts";
import { searchDebounceMs, useDebounced } from "../state/debounce.ts";
import { useDateFormat } from "../i18n/format.ts";
import { SearchBox } from "../ui/SearchBox.tsx";

/** Patients per search page (our choice; the seed gives none). */
export const PICKER_PAGE_SIZE = 20;

interface Results { readonly entries: readonly Patient[]; readonly remaining: number; readonly page: number }

/**
 * The measurement form's patient selector: "search with infinite paging" (POST patient/search, "paging continues
 * while remaining > 0", "input debounced 500 ms"). The next page loads when the end of the list scrolls into view,
 * or with the button at its end.
 */
export function PatientPicker({ onPick }: { onPick: (patient: Patient) => void }) {
  const { t } = useLingui();
  const api = useApi();
  const { date } = useDateFormat();
  const [text, setText] = useState("");
  const name = useDebounced(text.trim(), searchDebounceMs);
  const [results, setResults] = useState<Results | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const sentinel = useRef<HTMLLIElement>(null);

  useEffect(() => {
    const mine = ++generation.current;
    setResults(null);
    setFailed(false);
    api.call("patient.search", { body: { filter: { name, birthdate: null }, page: 0, quantity: PICKER_PAGE_SIZE } }).then(
      (r) => { if (mine === generation.current) setResults({ entries: r.entries, remaining: r.remaining, page: r.page }); },
      () => { if (mine === generation.current) setFailed(true); },
    );
  }, [api, name]);

  const loadMore = async () => {
    if (!results || results.remaining <= 0 || loadingMore) return;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const r = await api.call("patient.search", { body: { filter: { name, birthdate: null }, page: results.page + 1, quantity: PICKER_PAGE_SIZE } });
      if (mine === generation.current)
        setResults((prev) => prev && {
          entries: [...prev.entries, ...r.entries.filter((e) => !prev.entries.some((p) => p.id === e.id))],
          remaining: r.remaining,
          page: r.page,
        });
    } catch {
      if (mine === generation.current) setFailed(true);
    } finally {
      setLoadingMore(false);
    }
  };

  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) void loadMore(); });
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
        <ul className="patient-picker-list" role="listbox" aria-label={t`Patients`}>
          {results.entries.map((p) => (
            <li key={p.id} role="presentation">
              <button type="button" role="option" aria-selected={false} onClick={() => onPick(p)}>
                <strong>{p.name}</strong>
                <span className="muted">{p.uniqueId} · {date(p.birthdate)}</span>
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
