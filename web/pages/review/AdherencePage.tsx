import { Link, useSearchParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { useRead } from "../../state/use-read.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Select } from "../../ui/Select.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";

// Adherence (issue 31 §3): the patients whose active home programme is below a threshold of sessions done, lowest
// first. Our choice of thresholds to pick from: the published home programmes held 73 % (weekly, Melbourne Rapid
// Fields) and 98 % (monthly, Eyecatcher), so 80 % by default sits between a programme going well and one that is not.

const THRESHOLDS = ["50", "70", "80", "90"] as const;
type Threshold = (typeof THRESHOLDS)[number];
const isThreshold = (s: string | null): s is Threshold => (THRESHOLDS as readonly string[]).includes(s ?? "");

export default function AdherencePage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const chosen = params.get("below");
  const below: Threshold = isThreshold(chosen) ? chosen : "80";
  const list = useRead("home.adherenceList", { query: { below: Number(below) / 100 } });
  return (
    <section className="card stack" aria-labelledby="adherence-heading">
      <h2 id="adherence-heading" style={{ margin: 0 }}>{t`Patients below an adherence threshold`}</h2>
      <Select<Threshold>
        label={t`Adherence below`}
        value={below}
        options={THRESHOLDS.map((v) => ({ value: v, label: `${v} %` }))}
        onChange={(v) => setParams({ below: v }, { replace: true })}
      />
      {list.status === "loading" && <Skeleton kind="fields" count={3} />}
      {list.status === "error" && (
        <div className="alert alert-error" role="alert">{t`The adherence list cannot be displayed. Try again later.`}</div>
      )}
      {list.status === "success" && list.data.length === 0 && (
        <EmptyState title={t`Every patient is above the threshold`} hint={t`Only active home programmes with a session due are counted.`} />
      )}
      {list.status === "success" && list.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>{t`Patient`}</th>
              <th>{t`Due`}</th>
              <th>{t`Done`}</th>
              <th>{t`Missed`}</th>
              <th>{t`Adherence`}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((a) => (
              <tr key={a.programmeId} data-adherence-row={a.patient.id}>
                <td>
                  <Link to={`/patient/${encodeURIComponent(a.patient.id)}/home-monitoring`} data-user-text>
                    {a.patient.name}
                  </Link>
                </td>
                <td className="num">{a.due}</td>
                <td className="num">{a.done}</td>
                <td className="num">{a.missed}</td>
                <td className="num">{a.rate === null ? "–" : `${Math.round(a.rate * 100)} %`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
