import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import type { GhtOutcome } from "../../core/analytics/ght.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { isScreening, seenAt, seenPercent } from "../../core/plots/screening.ts";
import { catchTrialText, dB2, formatDuration, isEsterman, normativeDatabaseText } from "./result-model.ts";

// Every index of a result (accounts seed §2 and §3), in two aligned tables: the field's indices and the test's
// conduct. Values are right-aligned in tabular digits so decimals line up; units sit in their own column.

export const ghtNames: Record<GhtOutcome, MessageDescriptor> = {
  "outside normal limits": msg`Outside normal limits`,
  borderline: msg`Borderline`,
  "general reduction of sensitivity": msg`General reduction of sensitivity`,
  "abnormally high sensitivity": msg`Abnormally high sensitivity`,
  "within normal limits": msg`Within normal limits`,
};

export interface IndexRow {
  readonly key: string;
  readonly label: string;
  readonly value: string;
  readonly unit?: string;
  /** A title explaining the abbreviation. */
  readonly hint?: string;
}

function Table({ caption, rows }: { caption: string; rows: readonly IndexRow[] }) {
  return (
    <table className="indices">
      <caption>{caption}</caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-index={r.key}>
            <th scope="row">{r.hint ? <abbr title={r.hint}>{r.label}</abbr> : r.label}</th>
            <td className="num">{r.value}</td>
            <td className="unit">{r.unit ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function IndicesTable({ result, analysis }: { result: MeasurementResult; analysis: ResultAnalysis | null }) {
  const { t, i18n } = useLingui();
  const d = analysis?.display;
  const ght = analysis?.normative?.ght?.outcome;
  const esterman = isEsterman(result);
  // A screening's values are levels seen, not thresholds: its index is the share of locations seen (screening.ts).
  const screening = !esterman && isScreening(result.strategy);
  const seen = seenAt(result.thresholds);
  const calibration = result.gazeCalibration === null ? t`Not tested` : result.gazeCalibration ? t`Passed` : t`Failed`;
  const version = normativeDatabaseText(result);
  const field: IndexRow[] = esterman
    ? [{ key: "esterman", label: t`Esterman score`, value: String(analysis?.estermanScore ?? result.estermanScore ?? "–"), unit: "%" }]
    : screening
    ? [
        { key: "seen", label: t`Seen`, value: String(seenPercent(seen)), unit: "%" },
        { key: "seenCount", label: t`Locations seen`, value: `${seen.filter((s) => s === true).length}/${seen.filter((s) => s !== null).length}` },
      ]
    : [
        { key: "ms", label: t`MS`, hint: t`Mean sensitivity`, value: dB2(d?.meanSensitivity ?? Math.max(0, result.meanSensitivity)), unit: "dB" },
        { key: "md", label: t`MD`, hint: t`Mean defect`, value: dB2(d?.meanDefect ?? result.meanDefect), unit: "dB" },
        { key: "slv", label: t`sLV`, hint: t`Square root of loss variance`, value: dB2(d?.slv ?? result.squareRootLossVariance), unit: "dB" },
        { key: "psd", label: t`PSD`, hint: t`Pattern standard deviation`, value: dB2(d?.psd), unit: "dB" },
        { key: "vfi", label: t`VFI`, hint: t`Visual field index`, value: String(d?.vfi ?? result.vfi ?? "–"), unit: "%" },
        { key: "ght", label: t`GHT`, hint: t`Glaucoma hemifield test`, value: ght ? i18n._(ghtNames[ght]) : "–" },
      ];
  const conduct: IndexRow[] = [
    { key: "fp", label: t`False positives`, value: catchTrialText(result.catchTrials.falsePositive) },
    { key: "fn", label: t`False negatives`, value: catchTrialText(result.catchTrials.falseNegative) },
    { key: "fl", label: t`Fixation losses`, value: catchTrialText(result.catchTrials.blindSpot) },
    { key: "reliability", label: t`Reliability score`, value: result.reliabilityScore === null ? "–" : String(Math.round(result.reliabilityScore)), unit: "%" },
    { key: "duration", label: t`Test duration`, value: formatDuration(result.examinationTimeInSeconds), unit: t`m:s` },
    { key: "presentations", label: t`Presentations`, value: String(result.presentations) },
    { key: "background", label: t`Background`, value: result.background.toFixed(1), unit: "asb" },
    { key: "maxIntensity", label: t`Maximum intensity`, value: String(Math.round(result.maxIntensity)), unit: "cd/m²" },
    { key: "normative", label: t`Normative database`, value: version ?? t`None` },
    { key: "gazeCalibration", label: t`Gaze calibration`, value: calibration },
    { key: "device", label: t`Device`, value: result.deviceAlias ?? "–" },
  ];
  return (
    <div className="indices-tables">
      <Table caption={t`Indices`} rows={field} />
      <Table caption={t`Test conduct`} rows={conduct} />
    </div>
  );
}
