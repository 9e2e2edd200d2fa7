import { useLingui } from "@lingui/react/macro";
import { patternLabel } from "../../core/model/enums.ts";
import type { LaneTest } from "../../core/scheduling/next-test.ts";
import { eyeNames } from "../i18n/names.ts";
import { PatientName } from "../ui/PatientName.tsx";
import { testTypeNames } from "./names.ts";

/**
 * What a confirmation acts on: patient (name and ID), test, eye, pattern and lane, so nobody starts, pauses or stops
 * the wrong patient's test.
 */
export function TestSubject({ test, laneName }: { test: LaneTest; laneName: string }) {
  const { t, i18n } = useLingui();
  return (
    <dl className="test-subject" data-testid="test-subject">
      <dt>{t`Patient`}</dt>
      <dd>
        <PatientName patientId={test.patientId} />
      </dd>
      <dt>{t`Test`}</dt>
      <dd>{test.displayName ?? i18n._(testTypeNames[test.testType])}</dd>
      <dt>{t`Eye`}</dt>
      <dd>{i18n._(eyeNames[test.eye])}</dd>
      {test.pattern !== null && (
        <>
          <dt>{t`Pattern`}</dt>
          <dd>{patternLabel[test.pattern]}</dd>
        </>
      )}
      <dt>{t`Headset`}</dt>
      <dd>{laneName}</dd>
    </dl>
  );
}
