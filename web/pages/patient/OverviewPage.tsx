import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { patternLabel, type AmslerAnswer } from "../../../core/model/enums.ts";
import type { ColourVisionClassification } from "../../../core/model/colour-vision.ts";
import { eyeNames } from "../../i18n/names.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useCache } from "../../state/client.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { usePatient } from "../../state/patient-context.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TestTypeName } from "../home/TestTypeName.tsx";
import { overviewRows, type RowSummary } from "./overview-rows.ts";
import { useSourceNames } from "../../results/result-sources.ts";

/**
 * "The overview page has a recent-tests table." (accounts seed §2): every taken test of the patient, measurements and
 * examinations of all four types (both variants), newest first, with a one-line result and a link to its page.
 */
export default function OverviewPage() {
  const { t } = useLingui();
  const patient = usePatient();
  const format = useDateFormat();
  const measurements = useCache(CacheKey.Measurements, { patientId: patient.id });
  const examinations = useCache(CacheKey.Examinations, { patientId: patient.id, taken: true });
  if (measurements.status === "error" || examinations.status === "error")
    return <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>;
  if (measurements.status === "loading" || examinations.status === "loading") return <Skeleton kind="fields" count={4} />;
  const rows = overviewRows(measurements.data, examinations.data);
  if (rows.length === 0)
    return <EmptyState title={t`No tests yet`} hint={t`Tests appear here once a headset has uploaded their results.`} />;
  return (
    <section className="card" aria-labelledby="recent-tests">
      <h2 id="recent-tests">{t`Recent tests`}</h2>
      <table className="table">
        <thead>
          <tr>
            <th>{t`Date`}</th>
            <th>{t`Test`}</th>
            <th>{t`Eye`}</th>
            <th>{t`Result`}</th>
            <th>
              <span className="visually-hidden">{t`Open`}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-type={r.type}>
              <td className="num">{format.dateTime(r.takenAt)}</td>
              <td>
                <TestTypeName type={r.type} />
              </td>
              <td>
                <EyeName eye={r.eye} />
              </td>
              <td>
                <Summary summary={r.summary} />
              </td>
              <td>{r.link && <Link to={r.link} relative="path">{t`Open result`}</Link>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function EyeName({ eye }: { eye: keyof typeof eyeNames }) {
  const { i18n } = useLingui();
  return <>{i18n._(eyeNames[eye])}</>;
}

/** The one-line result of a row, by test type. */
function Summary({ summary: s }: { summary: RowSummary }) {
  const { t, i18n } = useLingui();
  const names = useSourceNames();
  switch (s.kind) {
    case "perimetry": {
      const pattern = patternLabel[s.pattern];
      const strategy = names.resultStrategy(s.result);
      if (s.meanDefect === null) return <>{t`${pattern}, ${strategy}`}</>;
      const md = s.meanDefect.toFixed(2);
      return <>{t`${pattern}, ${strategy}, MD ${md} dB`}</>;
    }
    case "amsler": {
      const answers: Record<AmslerAnswer, string> = {
        healthy: t`Normal`,
        wavy: t`Abnormal: wavy lines`,
        missing: t`Abnormal: missing areas`,
        "not-sure": t`Abnormal: not sure`,
      };
      return <>{answers[s.answer]}</>;
    }
    case "acuity": {
      const one = s.eyes.length === 1;
      const parts = s.eyes.map((e) => {
        const logMAR = e.logMAR.toFixed(2);
        const { metres, feet } = e;
        const line = t`logMAR ${logMAR} (${metres}, ${feet})`;
        if (one) return line;
        const eye = i18n._(eyeNames[e.eye]);
        return t`${eye}: ${line}`;
      });
      return <>{parts.join("; ")}</>;
    }
    case "colour": {
      const names: Record<ColourVisionClassification, string> = {
        normal: t`normal colour vision`,
        protan: t`red-green deficiency (protan)`,
        deutan: t`red-green deficiency (deutan)`,
        "red-green": t`red-green deficiency`,
        tritan: t`blue-yellow deficiency (tritan)`,
        inconclusive: t`inconclusive`,
      };
      const correct = s.platesCorrect;
      const total = s.platesPresented;
      const classification = names[s.classification];
      return <>{t`${correct}/${total} plates correct, ${classification}`}</>;
    }
    case "none":
      return <span className="muted">{t`No result recorded`}</span>;
  }
}
