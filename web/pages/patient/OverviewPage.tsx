import { Link } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import { patternLabel } from "../../../core/model/enums.ts";
import { eyeNames, strategyNames } from "../../i18n/names.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useCachedQuery } from "../../state/use-cached.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { usePatient } from "../../state/patient-context.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { measurementDate } from "./measurement-groups.ts";

/** "The overview page has a recent-tests table." (accounts seed §2) */
export default function OverviewPage() {
  const { t, i18n } = useLingui();
  const patient = usePatient();
  const format = useDateFormat();
  const list = useCachedQuery(CacheKey.Measurements, { patientId: patient.id });
  if (list.status === "loading") return <Skeleton kind="fields" count={4} />;
  if (list.status === "error") return <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>;
  const taken = list.data.filter((m) => m.result && m.trashedAt === null).sort((a, b) => measurementDate(b).localeCompare(measurementDate(a)));
  if (taken.length === 0) return <EmptyState title={t`No tests yet`} hint={t`Tests appear here once a headset has uploaded their results.`} />;
  return (
    <section className="card" aria-labelledby="recent-tests">
      <h2 id="recent-tests">{t`Recent tests`}</h2>
      <table className="table">
        <thead><tr><th>{t`Date`}</th><th>{t`Eye`}</th><th>{t`Pattern`}</th><th>{t`Strategy`}</th><th className="num">{t`MD (dB)`}</th><th><span className="visually-hidden">{t`Open`}</span></th></tr></thead>
        <tbody>
          {taken.map((m) => (
            <tr key={m.id}>
              <td className="num">{format.dateTime(measurementDate(m))}</td>
              <td>{i18n._(eyeNames[m.eye])}</td>
              <td>{patternLabel[m.pattern]}</td>
              <td>{i18n._(strategyNames[m.strategy])}</td>
              <td className="num">{m.result?.meanDefect?.toFixed(2) ?? "–"}</td>
              <td><Link to={`../perimetry/${m.id}?scrollToMeasurement=1`} relative="path">{t`Open result`}</Link></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
