import { useId } from "react";
import { useLingui } from "@lingui/react/macro";

/**
 * "Check only (dry run)": the one switch of every call that can say what it would do and write nothing (an import, the
 * PACS's priors, the worklist), with the hint saying per what it reports (a file, a field, a step).
 */
export function DryRunCheck(props: { checked: boolean; disabled: boolean; hint: string; onChange(checked: boolean): void }) {
  const { t } = useLingui();
  const id = useId();
  const hintId = useId();
  return (
    <div className="import-check">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={hintId}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <div>
        <label htmlFor={id}>{t`Check only (dry run)`}</label>
        <div id={hintId} className="field-hint">
          {props.hint}
        </div>
      </div>
    </div>
  );
}
