import { useId } from "react";
import { useLingui } from "@lingui/react/macro";
import { offeredPatterns } from "../../../../core/rules/pattern-options.ts";
import { patternLabel, type Pattern, type Strategy } from "../../../../core/model/enums.ts";
import { strategyNames } from "../../../i18n/names.ts";
import { newCode, strategiesFor, withPattern, type CodeForm, type FieldId } from "./dicom-form.ts";
import { inputIdOf } from "./NodeFields.tsx";
import type { ShownErrors } from "./use-field-errors.ts";

// The organisation's own protocol codes (what its RIS puts in a step's Scheduled Protocol Code Sequence) and the test
// each means: a small table, one row per code, patterns and strategies named as the measurement form names them and
// offered as it offers them (a strategy the form does not offer for the pattern cannot be chosen).

export function LocalCodesTable({
  prefix,
  codes,
  errors,
  onChange,
}: {
  prefix: string;
  codes: readonly CodeForm[];
  errors: ShownErrors;
  onChange: (codes: readonly CodeForm[]) => void;
}) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const hintId = useId();
  const set = (key: number, change: (c: CodeForm) => CodeForm) => onChange(codes.map((c) => (c.key === key ? change(c) : c)));

  const text = (code: CodeForm, part: "scheme" | "value", label: string) => {
    const id: FieldId = `codes.${code.key}.${part}`;
    const inputId = inputIdOf(prefix, id);
    const message = errors.message(id);
    return (
      <td>
        <input
          id={inputId}
          className="input"
          value={code[part]}
          autoComplete="off"
          spellCheck={false}
          aria-label={label}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${inputId}-error` : undefined}
          onChange={(e) => {
            errors.edited(id);
            set(code.key, (c) => ({ ...c, [part]: e.target.value }));
          }}
          onBlur={() => errors.left(id)}
        />
        {message && (
          <span id={`${inputId}-error`} className="field-error" role="alert">
            {message}
          </span>
        )}
      </td>
    );
  };

  return (
    <div className="dicom-codes">
      <h4 id={headingId}>{t`Local protocol codes`}</h4>
      <p id={hintId} className="field-hint">
        {t`Codes your RIS uses besides the standard's (DICOM CID 4250 and 4251), and the test each one orders. A local code wins over the standard's.`}
      </p>
      {codes.length === 0 ? (
        <p className="muted">{t`No local codes: steps are read by the standard's codes only.`}</p>
      ) : (
        <div className="dicom-table-wrap">
          <table className="table dicom-codes-table" aria-labelledby={headingId} aria-describedby={hintId}>
            <thead>
              <tr>
                <th scope="col">{t`Coding scheme`}</th>
                <th scope="col">{t`Code value`}</th>
                <th scope="col">{t`Pattern`}</th>
                <th scope="col">{t`Strategy`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {codes.map((code, i) => {
                const row = i + 1;
                const strategies = strategiesFor(code.pattern);
                // A stored pair the form does not offer stays visible, so it is seen and changed.
                const strategyOptions = strategies.includes(code.strategy) ? strategies : [code.strategy, ...strategies];
                return (
                  <tr key={code.key}>
                    {text(code, "scheme", t`Coding scheme, code ${row}`)}
                    {text(code, "value", t`Code value, code ${row}`)}
                    <td>
                      <select
                        className="select"
                        value={String(code.pattern)}
                        aria-label={t`Pattern, code ${row}`}
                        onChange={(e) => set(code.key, (c) => withPattern(c, Number(e.target.value) as Pattern))}
                      >
                        {offeredPatterns.map((p) => (
                          <option key={p} value={String(p)}>
                            {patternLabel[p]}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <select
                        className="select"
                        value={String(code.strategy)}
                        aria-label={t`Strategy, code ${row}`}
                        onChange={(e) => set(code.key, (c) => ({ ...c, strategy: Number(e.target.value) as Strategy }))}
                      >
                        {strategyOptions.map((s) => (
                          <option key={s} value={String(s)}>
                            {i18n._(strategyNames[s])}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="dicom-codes-remove">
                      <button
                        type="button"
                        className="btn btn-quiet-danger"
                        onClick={() => onChange(codes.filter((c) => c.key !== code.key))}
                      >
                        {t`Remove`}
                        <span className="visually-hidden"> {t`code ${row}`}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div>
        <button type="button" className="btn" onClick={() => onChange([...codes, newCode()])}>
          {t`Add a code`}
        </button>
      </div>
    </div>
  );
}
