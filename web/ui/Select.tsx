import { useId } from "react";

export interface SelectOption<V extends string> {
  value: V;
  label: string;
  hint?: string;
}

export function Select<V extends string>({
  label,
  value,
  options,
  onChange,
  required,
  placeholder,
  error,
  id,
  hideLabel = false,
}: {
  label: string;
  value: V | "";
  options: ReadonlyArray<SelectOption<V>>;
  onChange: (value: V) => void;
  required?: boolean;
  placeholder?: string;
  error?: string | undefined;
  id?: string;
  hideLabel?: boolean;
}) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className="field">
      <label htmlFor={selectId} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <select
        id={selectId}
        className="select"
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-error` : undefined}
        onChange={(e) => onChange(e.target.value as V)}
      >
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((o) => (
          <option key={o.value} value={o.value} title={o.hint}>
            {o.hint ? `${o.label}: ${o.hint}` : o.label}
          </option>
        ))}
      </select>
      {error && (
        <span id={`${selectId}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
