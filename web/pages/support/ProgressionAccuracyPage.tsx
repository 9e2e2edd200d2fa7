import { useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { useMethodName } from "../../results/ProgressionCriteria.tsx";
import { useTitle } from "../../ui/useTitle.ts";
import { accuracy, methodCredits, simulationReferences } from "./progression-accuracy.ts";
import { CohortTable, SensitivityTable, SpecificityTable, TableScroll } from "./ProgressionAccuracyTables.tsx";

/**
 * Support: "How reliable is progression analysis" (issue 30 §4). The figures npm run bench:progression measured on
 * simulated cohorts (progression-accuracy.json), how the eyes were simulated, how to run it again and each method's
 * paper.
 */
export default function ProgressionAccuracyPage() {
  const { t, i18n } = useLingui();
  const methodName = useMethodName();
  useTitle(t`How reliable is progression analysis`);
  const data = accuracy;
  const f = data.followUp;
  const [date, commit, eyes] = [data.measuredOn, data.commit, f.eyesPerCohort];
  const [ageFrom, ageTo] = [f.ageRange[0], f.ageRange[1]];
  const years = ((f.visits - 1) * f.intervalMonths) / 12;
  const [months, pattern, strategy] = [f.intervalMonths, f.pattern, f.strategy];
  const diffuse = data.cohorts.filter((c) => c.kind === "diffuse");
  const localised = data.cohorts.filter((c) => c.kind === "localised");
  const [methods, speedEyes, speedVisits, seconds, threads] = [
    data.methods.length,
    data.speed.eyes.toLocaleString("en").replace(/,/g, " "),
    data.speed.visits,
    data.speed.seconds.toFixed(1),
    data.speed.workers,
  ];
  return (
    <div className="page stack accuracy-page">
      <p>
        <Link to="/support">{t`Help centre`}</Link>
      </p>
      <h1>{t`How reliable is progression analysis`}</h1>
      <p>{t`No progression method reports its own accuracy. Isopter measures each one on simulated eyes: how often it calls a stable eye worsening, and how soon it finds an eye that is losing sensitivity. The figures come from a simulation, not from patients: use them to compare the methods, not as a promise for one eye.`}</p>
      <p className="muted" data-testid="accuracy-measured">
        {t`Measured on ${date} (version ${commit}) with ${eyes} simulated eyes per group.`}
      </p>

      <section aria-labelledby="accuracy-stable">
        <h2 id="accuracy-stable">{t`Stable eyes: specificity`}</h2>
        <p>{t`The share of stable eyes a method does not call worsening, reading the first 5 visits (2 years) and the first 10 (4.5 years). Published aim: 95 % or more for PoPLR and for three-omitting PLR.`}</p>
        <SpecificityTable data={data} />
      </section>

      <section aria-labelledby="accuracy-progressing">
        <h2 id="accuracy-progressing">{t`Eyes losing sensitivity: sensitivity and time to detection`}</h2>
        <p>{t`The share of eyes a method calls worsening, reading the visits up to 2, 3 and 5 years, and the median time until it first calls an eye worsening.`}</p>
        <SensitivityTable data={data} cohorts={diffuse} caption={t`Diffuse loss: called worsening at 2 · 3 · 5 years`} />
        <SensitivityTable data={data} cohorts={localised} caption={t`Localised loss: called worsening at 2 · 3 · 5 years`} />
      </section>

      <section aria-labelledby="accuracy-eyes">
        <h2 id="accuracy-eyes">{t`The simulated eyes`}</h2>
        <p>{t`Early glaucomatous fields, ages ${ageFrom} to ${ageTo}, both eyes of each patient. Every ${months} months for ${years} years each eye sits a complete ${pattern} ${strategy} test, answered presentation by presentation by Isopter's simulated observer. Every group follows the same eyes; only the parameters below differ. A stable eye keeps its deviation from normal and ages normally.`}</p>
        <CohortTable data={data} />
        <ObserverTable />
      </section>

      <section aria-labelledby="accuracy-counting">
        <h2 id="accuracy-counting">{t`How the figures are counted`}</h2>
        <ul>
          <li>{t`A method's verdict at a visit is its verdict on the series up to that visit.`}</li>
          <li>{t`An eye a method cannot judge yet (too few visits, or its rules say not to report) counts as not called worsening; where a method judged fewer eyes, the share it judged is shown in brackets.`}</li>
          <li>{t`Median time to detection: the time by which half the eyes are called worsening.`}</li>
          <li>{t`Published aims are reported as measured: no method is adjusted to this simulation.`}</li>
        </ul>
        <p data-testid="accuracy-speed">
          {t`Speed: all ${methods} methods on ${speedEyes} eyes of ${speedVisits} visits took ${seconds} s on ${threads} threads (aim: 10 s).`}
        </p>
      </section>

      <section aria-labelledby="accuracy-rerun">
        <h2 id="accuracy-rerun">{t`Run it again`}</h2>
        <p>{t`From a copy of Isopter's source, this command prints the same tables and writes this page's figures. EYES sets the eyes per group.`}</p>
        <pre>
          <code>{data.command}</code>
        </pre>
      </section>

      <section aria-labelledby="accuracy-papers">
        <h2 id="accuracy-papers">{t`The methods and their papers`}</h2>
        <dl className="accuracy-credits">
          {data.methods.map((m) => (
            <div key={m}>
              <dt>{methodName(m)}</dt>
              <dd>
                {i18n._(methodCredits[m].what)}
                {methodCredits[m].references.map((r) => (
                  <cite key={r}>{r}</cite>
                ))}
              </dd>
            </div>
          ))}
          <div>
            <dt>{t`The simulation`}</dt>
            <dd>
              {simulationReferences.map((r) => (
                <cite key={r}>{r}</cite>
              ))}
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

/** The observer's pointwise test-retest SD against the published one, before and after calibration. */
function ObserverTable() {
  const { t } = useLingui();
  const { published, before, after } = accuracy.observer;
  const sd = (rows: typeof before, s: number) => rows.find((r) => r.sensitivity === s)?.sd?.toFixed(2) ?? "–";
  return (
    <>
      <p>{t`The observer's test-retest variability was calibrated to published figures (Gardiner, IOVS 2018): its frequency-of-seeing slope is scaled until the test's pointwise SD meets them at 30 and 25 dB.`}</p>
      <TableScroll label={t`Pointwise test-retest SD (dB) by true sensitivity`}>
        <table className="table accuracy-table accuracy-narrow" data-testid="accuracy-observer">
          <caption>{t`Pointwise test-retest SD (dB) by true sensitivity`}</caption>
          <thead>
            <tr>
              <th scope="col" className="num">{t`Sensitivity (dB)`}</th>
              <th scope="col" className="num">{t`Published`}</th>
              <th scope="col" className="num">{t`Before calibration`}</th>
              <th scope="col" className="num">{t`Calibrated`}</th>
            </tr>
          </thead>
          <tbody>
            {after.map((r) => {
              const p = published.find((x) => x.sensitivity === r.sensitivity);
              return (
                <tr key={r.sensitivity}>
                  <th scope="row" className="num">
                    {r.sensitivity}
                  </th>
                  <td className="num">{p ? `${p.low}–${p.high}` : "–"}</td>
                  <td className="num">{sd(before, r.sensitivity)}</td>
                  <td className="num">{sd(after, r.sensitivity)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
