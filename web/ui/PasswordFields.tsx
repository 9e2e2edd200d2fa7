import { useLingui } from "@lingui/react/macro";
import { validatePasswordForm, passwordProblems } from "../../core/rules/password.ts";
import { ruleDescriptor, ruleMessageDescriptors } from "../i18n/rule-messages.ts";
import { TextInput } from "./TextInput.tsx";

export interface PasswordValues {
  password: string;
  confirmation: string;
  oldPassword?: string;
}

/**
 * New password typed twice (and the old one for the change form), checked with core/rules/password.
 * Errors show once a field has been typed in, so an empty form is not red.
 */
export function PasswordFields({ values, onChange }: { values: PasswordValues; onChange: (values: PasswordValues) => void }) {
  const { t, i18n } = useLingui();
  const errors = validatePasswordForm(values);
  const problems = values.password === "" ? [] : passwordProblems(values.password);
  return (
    <>
      {values.oldPassword !== undefined && (
        <TextInput
          label={t`Current password`}
          type="password"
          required
          autoComplete="current-password"
          value={values.oldPassword}
          onChange={(oldPassword) => onChange({ ...values, oldPassword })}
        />
      )}
      <TextInput
        label={t`New password`}
        type="password"
        required
        autoComplete="new-password"
        value={values.password}
        onChange={(password) => onChange({ ...values, password })}
        hint={t`At least 8 characters with an uppercase and a lowercase letter, a digit and a special character, no spaces.`}
        error={values.password !== "" ? ruleDescriptor(errors.password) : undefined}
      />
      {problems.length > 1 && (
        <ul className="field-hint" aria-label={t`What the password also needs`}>
          {problems.slice(1).map((p) => (
            <li key={p.key}>{i18n._(ruleMessageDescriptors[p.key])}</li>
          ))}
        </ul>
      )}
      <TextInput
        label={t`Repeat the new password`}
        type="password"
        required
        autoComplete="new-password"
        value={values.confirmation}
        onChange={(confirmation) => onChange({ ...values, confirmation })}
        error={values.confirmation !== "" ? ruleDescriptor(errors.confirmation) : undefined}
      />
    </>
  );
}

export const passwordFormReady = (values: PasswordValues) => Object.keys(validatePasswordForm(values)).length === 0;
