import { useLingui } from "@lingui/react/macro";
import type { MethodId, SeriesCriteria } from "../../core/analytics/progression/criteria/index.ts";
import {
  keyFigure,
  methodMessages,
  methodSources,
  notApplicableMessage,
  readingMessage,
  verdictMessages,
} from "../../core/plots/criteria-text.ts";
import { resolveText } from "../../core/plots/message.ts";
import { usePlotTranslate } from "./SceneView.tsx";
import "./criteria.css";

// Every published progression criterion on the eye's series, in vfprogression's words, and the one reading of them
// (issue 30): the verdict table under the eye's events, PoPLR and VFI trend. The words come from core/plots/criteria-text.ts,
// which the print uses too; each method's name carries its source as a tooltip, and the Support page explains them.

export function ProgressionCriteria({ criteria }: { criteria: SeriesCriteria }) {
  const { t } = useLingui();
  const translate = usePlotTranslate();
  const text = (m: Parameters<typeof resolveText>[0]) => resolveText(m, translate);
  const reading = criteria.reading;
  return (
    <div className="progression-criteria" data-fact="criteria">
      <p className="progression-reading" data-fact="reading" data-verdict={reading.verdict ?? reading.basis}>
        <span className="muted">{t`Reading`}: </span>
        <strong>{text(readingMessage(reading))}</strong>
      </p>
      <table className="criteria-table small">
        <caption className="visually-hidden">{t`Progression criteria`}</caption>
        <thead>
          <tr>
            <th scope="col">{t`Method`}</th>
            <th scope="col">{t`Verdict`}</th>
            <th scope="col">{t`Basis`}</th>
          </tr>
        </thead>
        <tbody>
          {criteria.methods.map((m) => {
            const figure = keyFigure(m);
            return (
              <tr key={m.method} data-method={m.method} data-verdict={m.applicable ? m.verdict : "not-applicable"}>
                <th scope="row">
                  <abbr title={methodSources[m.method]}>{text(methodMessages[m.method])}</abbr>
                </th>
                <td className={m.applicable ? `verdict verdict-${m.verdict}` : "verdict muted"}>
                  {m.applicable ? text(verdictMessages[m.verdict]) : text(notApplicableMessage(m.reason))}
                </td>
                <td className="num">{figure ? text(figure) : ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A criterion's name in the interface language (the same words as the view and the print), for other pages' tables. */
export function useMethodName(): (method: MethodId) => string {
  const translate = usePlotTranslate();
  return (method) => resolveText(methodMessages[method], translate);
}
