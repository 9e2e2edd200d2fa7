import { useId } from "react";
import { useLingui } from "@lingui/react/macro";

export function SearchBox({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  const { t } = useLingui();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <search className="searchbox">
        <input id={id} className="input" type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
        {value !== "" && (
          <button type="button" className="btn btn-icon btn-clear" aria-label={t`Clear search`} onClick={() => onChange("")}>
            ×
          </button>
        )}
      </search>
    </div>
  );
}
