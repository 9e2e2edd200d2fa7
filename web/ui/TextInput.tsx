import { useId, useState, type InputHTMLAttributes } from "react";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { validateTextInput } from "../../core/rules/text-input.ts";
import { ruleDescriptor } from "../i18n/rule-messages.ts";

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Marks the field with the red asterisk; the message itself comes from the form's validation. */
  required?: boolean;
  /** An error to show under the field (translated by the caller or a rule descriptor). */
  error?: MessageDescriptor | string | undefined;
  hint?: string;
  /**
   * Apply "only letters, digits, comma, space, hyphen, underscore; otherwise 'Special characters are not allowed.'"
   * (accounts seed §5) while typing. Off for e-mail, password and dates.
   */
  characterRule?: boolean;
}

export function TextInput({
  label,
  value,
  onChange,
  required,
  error,
  hint,
  characterRule = false,
  type = "text",
  id,
  ...rest
}: TextInputProps) {
  const { t, i18n } = useLingui();
  const autoId = useId();
  const inputId = id ?? autoId;
  const [revealed, setRevealed] = useState(false);
  const ruleError = characterRule ? ruleDescriptor(validateTextInput(value)) : undefined;
  const shown = ruleError ?? error;
  const text = shown === undefined ? undefined : typeof shown === "string" ? shown : i18n._(shown);
  const isPassword = type === "password";
  const describedBy = [text && `${inputId}-error`, hint && `${inputId}-hint`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <div className="input-wrap">
        <input
          {...rest}
          id={inputId}
          className="input"
          type={isPassword && revealed ? "text" : type}
          value={value}
          required={required}
          aria-required={required || undefined}
          aria-invalid={text ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
        {isPassword && (
          <button
            type="button"
            className="btn btn-reveal"
            aria-pressed={revealed}
            aria-controls={inputId}
            aria-label={revealed ? t`Hide password` : t`Show password`}
            onClick={() => setRevealed((r) => !r)}
          >
            {revealed ? t`Hide` : t`Show`}
          </button>
        )}
      </div>
      {hint && (
        <span id={`${inputId}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      {text && (
        <span id={`${inputId}-error`} className="field-error" role="alert">
          {text}
        </span>
      )}
    </div>
  );
}
