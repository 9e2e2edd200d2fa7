import { useState } from "react";
import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { ageOn } from "../../../core/model/patient.ts";
import { birthdateFilter, birthdateFilterOptions, type BirthdateFilterParts } from "../../../core/rules/birthdate-filter.ts";
import { searchDebounceMs, useDebounced } from "../../state/debounce.ts";
import { usePatientSearch } from "../../state/patient-search.ts";
import { todayIso } from "../../state/today.ts";
import { SearchBox } from "../../ui/SearchBox.tsx";
import { Select } from "../../ui/Select.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { useDateFormat } from "../../i18n/format.ts";

/** Patient search by name or ID with the birthdate filter; pages load as the list scrolls ("infinite scroll while remaining > 0"). */
export function PatientSearch() {
  const { t } = useLingui();
  const [name, setName] = useState("");
  const [parts, setParts] = useState<BirthdateFilterParts>({ day: null, month: null, year: null });
  const currentYear = new Date().getFullYear();
  const options = birthdateFilterOptions(currentYear);
  // Debounced as a string, so equal filters never restart the timer.
  const settled = useDebounced(JSON.stringify({ name: name.trim(), birthdate: birthdateFilter(parts, currentYear) }), searchDebounceMs);
  const filter = JSON.parse(settled) as { name: string; birthdate: string | null };
  const { results, failed, loadingMore, loadMore, sentinel } = usePatientSearch(filter);

  const today = todayIso();
  const format = useDateFormat();
  const part = (key: keyof BirthdateFilterParts) => (v: string) => setParts((p) => ({ ...p, [key]: v === "" ? null : v }));
  const filterActive = parts.day !== null || parts.month !== null || parts.year !== null;

  return (
    <section aria-labelledby="patients-heading" className="card">
      <h2 id="patients-heading">{t`Patients`}</h2>
      <SearchBox label={t`Search patients by name or ID`} placeholder={t`Search by name or ID`} value={name} onChange={setName} />
      <fieldset className="birthdate-filter" style={{ border: "none", padding: 0, margin: 0 }}>
        <legend className="field-hint">{t`Filter by birthdate (day, month and year)`}</legend>
        <Select
          label={t`Day`}
          value={parts.day ?? ""}
          onChange={part("day")}
          options={[{ value: "", label: t`Day` }, ...options.days.map((d) => ({ value: d, label: d }))]}
          hideLabel
        />
        <Select
          label={t`Month`}
          value={parts.month ?? ""}
          onChange={part("month")}
          options={[{ value: "", label: t`Month` }, ...options.months.map((d) => ({ value: d, label: d }))]}
          hideLabel
        />
        <Select
          label={t`Year`}
          value={parts.year ?? ""}
          onChange={part("year")}
          options={[{ value: "", label: t`Year` }, ...[...options.years].reverse().map((d) => ({ value: d, label: d }))]}
          hideLabel
        />
        {filterActive && (
          <button type="button" className="btn" onClick={() => setParts({ day: null, month: null, year: null })}>{t`Clear date`}</button>
        )}
      </fieldset>
      {failed && <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>}
      {!results && !failed && <Skeleton kind="patient-cards" count={4} />}
      {results && results.entries.length === 0 && (
        <EmptyState
          title={t`No patients found`}
          hint={
            filter.name || filter.birthdate
              ? t`Check the spelling or the birthdate, or create the patient.`
              : t`Create the first patient to get started.`
          }
        />
      )}
      {results && results.entries.length > 0 && (
        <ul className="list search-results" aria-label={t`Search results`}>
          {results.entries.map((p) => (
            <li key={p.id}>
              <Link className="patient-row" to={`/patient/${p.id}/perimetry/all`}>
                <span className="spacer">
                  <strong>{p.name}</strong>
                  <br />
                  <span className="muted">
                    {t`ID`} {p.uniqueId}
                  </span>
                </span>
                <span className="num">
                  {format.date(p.birthdate)} · {t`${ageOn(p.birthdate, today)} years`}
                </span>
              </Link>
            </li>
          ))}
          {results.remaining > 0 && (
            <li ref={sentinel}>
              <button type="button" className="btn" onClick={() => void loadMore()} disabled={loadingMore}>
                {loadingMore ? t`Loading…` : t`Show more patients`}
              </button>
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
