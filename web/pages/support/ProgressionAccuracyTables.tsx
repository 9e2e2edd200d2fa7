import { Plural, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { useMethodName } from "../../results/ProgressionCriteria.tsx";
import type { AccuracyCohort, AccuracyRate, ProgressionAccuracy } from "./progression-accuracy.ts";

// The measured tables of the Support page "How reliable is progression analysis": specificity on the stable cohorts,
// sensitivity and median time to detection on the progressing ones, and the cohorts' parameters.

/** A table wider than a narrow screen scrolls in its own box, which the keyboard can reach (axe: scrollable-region-focusable). */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable for keyboard scrolling (axe scrollable-region-focusable)
    <section className="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
const signed = (x: number) => (x < 0 ? `−${Math.abs(x)}` : `${x}`);

/** A cohort's name from its parameters, in the interface language. */
export function useCohortLabel(): (c: AccuracyCohort) => string {
  const { t } = useLingui();
  return (c) => {
    const rate = signed(c.rateDbPerYear);
    const parts = [
      c.kind === "stable" ? t`Stable` : c.kind === "diffuse" ? t`Diffuse loss, ${rate} dB/year` : t`Localised loss, ${rate} dB/year`,
    ];
    if (c.fpr > 0.05 || c.fnr > 0.05) parts.push(t`false answers`);
    if (c.learningDb > 0) parts.push(t`learning effect`);
    return parts.join(", ");
  };
}

/** Specificity after 5 and after 10 visits, and the shares the method could judge where it judged fewer than all. */
function SpecificityCell({ visits5, visits10 }: { visits5: AccuracyRate; visits10: AccuracyRate }) {
  const { t } = useLingui();
  const judged = `${percent(visits5.judged)} · ${percent(visits10.judged)}`;
  return (
    <td className="num">
      {percent(1 - visits5.worsening)} · {percent(1 - visits10.worsening)}
      {Math.min(visits5.judged, visits10.judged) < 0.995 && (
        <>
          <br />
          <span className="muted">{t`(judged ${judged})`}</span>
        </>
      )}
    </td>
  );
}

/** One row per method, one column per cohort: the layout of the specificity and sensitivity tables. */
function MethodsByCohort({
  data,
  cohorts,
  caption,
  testId,
  cell,
}: {
  data: ProgressionAccuracy;
  cohorts: readonly AccuracyCohort[];
  caption: string;
  testId: string;
  cell: (method: ProgressionAccuracy["methods"][number], cohort: AccuracyCohort) => ReactNode;
}) {
  const { t } = useLingui();
  const methodName = useMethodName();
  const label = useCohortLabel();
  return (
    <TableScroll label={caption}>
      <table className="table accuracy-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t`Method`}</th>
            {cohorts.map((c) => (
              <th key={c.id} scope="col" className="num">
                {label(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.methods.map((m) => (
            <tr key={m} data-method={m}>
              <th scope="row">{methodName(m)}</th>
              {cohorts.map((c) => cell(m, c))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function SpecificityTable({ data }: { data: ProgressionAccuracy }) {
  const { t } = useLingui();
  return (
    <MethodsByCohort
      data={data}
      cohorts={data.cohorts.filter((c) => c.kind === "stable")}
      caption={t`Stable eyes not called worsening after 5 · 10 visits`}
      testId="accuracy-specificity"
      cell={(m, c) => <SpecificityCell key={c.id} {...data.specificity[c.id]![m]} />}
    />
  );
}

export function SensitivityTable({
  data,
  cohorts,
  caption,
}: {
  data: ProgressionAccuracy;
  cohorts: readonly AccuracyCohort[];
  caption: string;
}) {
  const { t } = useLingui();
  const followUpYears = ((data.followUp.visits - 1) * data.followUp.intervalMonths) / 12;
  return (
    <MethodsByCohort
      data={data}
      cohorts={cohorts}
      caption={caption}
      testId="accuracy-sensitivity"
      cell={(m, c) => {
        const s = data.sensitivity[c.id]![m];
        const median = s.medianYears;
        return (
          <td key={c.id} className="num">
            {[s.years2, s.years3, s.years5].map((r) => percent(r.worsening)).join(" · ")}
            <br />
            <span className="muted">
              {median === null ? t`median > ${followUpYears} years` : <Plural value={median} one="median # year" other="median # years" />}
            </span>
          </td>
        );
      }}
    />
  );
}

export function CohortTable({ data }: { data: ProgressionAccuracy }) {
  const { t } = useLingui();
  const label = useCohortLabel();
  const clusterSize = data.followUp.clusterLocations;
  const loss = (c: AccuracyCohort) => {
    const rate = signed(c.rateDbPerYear);
    return c.kind === "stable"
      ? t`none`
      : c.kind === "diffuse"
        ? t`${rate} dB/year at every location`
        : t`${rate} dB/year at ${clusterSize} locations (arcuate, nasal step)`;
  };
  return (
    <TableScroll label={t`The simulated groups`}>
      <table className="table accuracy-table" data-testid="accuracy-cohorts">
        <caption>{t`The simulated groups`}</caption>
        <thead>
          <tr>
            <th scope="col">{t`Group`}</th>
            <th scope="col">{t`Loss beyond normal ageing`}</th>
            <th scope="col">{t`False answers`}</th>
            <th scope="col">{t`Learning effect`}</th>
          </tr>
        </thead>
        <tbody>
          {data.cohorts.map((c) => {
            const [fp, fn, learning] = [Math.round(c.fpr * 100), Math.round(c.fnr * 100), c.learningDb];
            return (
              <tr key={c.id}>
                <th scope="row">{label(c)}</th>
                <td>{loss(c)}</td>
                <td className="nowrap">{t`FP ${fp} %, FN ${fn} %`}</td>
                <td>{c.learningDb > 0 ? t`first visit ${learning} dB lower on average` : t`none`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
