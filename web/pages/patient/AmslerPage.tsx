import { useLingui } from "@lingui/react/macro";
import type { Examination } from "../../../core/model/examination.ts";
import type { AmslerAnswer } from "../../../core/model/enums.ts";
import { useDateFormat } from "../../i18n/format.ts";
import { useCache } from "../../state/client.ts";
import { CacheKey } from "../../../core/client/index.ts";
import { usePatient } from "../../state/patient-context.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { amslerVisits } from "./amsler-groups.ts";

export default function AmslerPage() {
  const { t } = useLingui();
  const patient = usePatient();
  const format = useDateFormat();
  const list = useCache(CacheKey.AmslerGrid, { patientId: patient.id });
  if (list.status === "loading") return <Skeleton kind="blocks" count={2} />;
  if (list.status === "error")
    return <div className="alert alert-error" role="alert">{t`Something went wrong. Try again or refresh the browser.`}</div>;
  const visits = amslerVisits(list.data);
  if (visits.length === 0) return <EmptyState title={t`No Amsler grid tests yet`} hint={t`Amsler grid tests are part of appointments.`} />;
  return (
    <section aria-labelledby="amsler-heading" className="stack">
      <h2 id="amsler-heading">{t`Amsler grid`}</h2>
      {visits.map((v) => (
        <div key={v.key} className="card">
          <h3>{format.dateTime(v.at)}</h3>
          <div className="grid-2">
            <EyeColumn title={t`Right eye`} list={v.right} />
            <EyeColumn title={t`Left eye`} list={v.left} />
          </div>
        </div>
      ))}
    </section>
  );
}

function EyeColumn({ title, list }: { title: string; list: Examination[] }) {
  const { t } = useLingui();
  const answers: Record<AmslerAnswer, string> = {
    healthy: t`Normal`,
    wavy: t`Abnormal: wavy lines`,
    missing: t`Abnormal: missing areas`,
    "not-sure": t`Abnormal: not sure`,
  };
  return (
    <div>
      <h4>{title}</h4>
      {list.length === 0 && <p className="muted">{t`Not tested`}</p>}
      {list.map((e) => (
        <p key={e.id}>{e.result && "answer" in e.result ? answers[e.result.answer] : t`without result`}</p>
      ))}
    </div>
  );
}
