import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import type { GhtOutcome } from "../../core/analytics/ght.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { isScreening, seenAt, seenPercent } from "../../core/plots/screening.ts";
import type { ProbabilityLevel } from "../../core/analytics/normative/tables.ts";
import { Pattern, patternLabel, StimuliUpdate } from "../../core/model/enums.ts";
import { sizeName } from "../technician/names.ts";
import { catchTrialText, dB2, formatDuration, isEsterman, normativeDatabaseText } from "./result-model.ts";
import { resultDevice } from "../../core/analytics/series-sources.ts";
import type { DeviceIndices } from "../../core/model/result-source.ts";
import { useSourceNames } from "./result-sources.ts";
import { StagesTable } from "./StagesTable.tsx";

// Every index of a result (accounts seed §2 and §3), in three aligned tables: the field's indices (each with its
// convention, Octopus or Humphrey, and the p-value of Humphrey's MD and PSD), the test's parameters and its conduct. Values are right-aligned in tabular digits so decimals line up; units sit in their own column.
// An imported result (issue 29) has a fourth: the device's own analysis as its file gave it, captioned with the
// perimeter's manufacturer and model and its normative data, beside Isopter's own (captioned as Isopter's, or saying
// that Isopter has no normals for the pattern), so the two are never read as one.

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
  /** The index's convention ("Octopus: positive = loss"), printed under the label. */
  readonly note?: string;
  /** The index's probability among healthy eyes ("p < 1 %"), like the plots' probability levels. */
  readonly p?: string;
  /** A long text value (a name) that may wrap instead of widening the table. */
  readonly wrap?: boolean;
}

function Table({ caption, note, rows, testId }: { caption: string; note?: string; rows: readonly IndexRow[]; testId?: string }) {
  const withP = rows.some((r) => r.p !== undefined);
  return (
    <table className="indices" data-testid={testId}>
      <caption>
        {caption}
        {note && <span className="index-note caption-note">{note}</span>}
      </caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-index={r.key}>
            <th scope="row">
              {r.hint ? <abbr title={r.hint}>{r.label}</abbr> : <span className="index-label">{r.label}</span>}
              {r.note && <span className="index-note">{r.note}</span>}
            </th>
            <td className={r.wrap ? "num wrap" : "num"}>{r.value}</td>
            <td className="unit">{r.unit ?? ""}</td>
            {withP && <td className="p">{r.p ?? ""}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A global index's probability level as printed: "p < 0.5 %" ... "p < 5 %", or "p ≥ 5 %" within normal limits. */
function usePValue(): (level: ProbabilityLevel | undefined) => string | undefined {
  const { t } = useLingui();
  return (level) => {
    if (level === undefined) return undefined;
    if (level > 0.05) return t`p ≥ 5 %`;
    const percent = String(level * 100);
    return t`p < ${percent} %`;
  };
}

/** A probability as an imported file gives it, in percent (100: within normal limits). */
function useDevicePValue(): (percent: number | null) => string | undefined {
  const { t } = useLingui();
  return (value) => {
    if (value === null) return undefined;
    if (value >= 100) return t`not significant`;
    const percent = String(value);
    return t`p < ${percent} %`;
  };
}

/** The imported device's own indices, as its file gave them (issue 29). */
function DeviceIndicesTable({ result, indices }: { result: MeasurementResult; indices: DeviceIndices | null }) {
  const { t } = useLingui();
  const pValue = useDevicePValue();
  const names = useSourceNames();
  const device = names.device(resultDevice(result));
  const norms = indices?.normsName?.trim();
  const caption = t`Device's own analysis (${device})`;
  if (!indices)
    return <p className="muted indices-device-none" data-testid="indices-device">{t`${caption}: the file carries no indices.`}</p>;
  const asGiven = t`as the file gives it`;
  const rows: IndexRow[] = [
    {
      key: "deviceMd",
      label: t`MD`,
      hint: t`Mean deviation`,
      note: asGiven,
      value: dB2(indices.md),
      unit: "dB",
      p: pValue(indices.mdProbability),
    },
    {
      key: "devicePsd",
      label: t`PSD`,
      hint: t`Pattern standard deviation`,
      note: asGiven,
      value: dB2(indices.psd),
      unit: "dB",
      p: pValue(indices.psdProbability),
    },
    {
      key: "deviceVfi",
      label: t`VFI`,
      hint: t`Visual field index`,
      note: asGiven,
      value: indices.vfi === null ? "–" : String(indices.vfi),
      unit: "%",
    },
    { key: "deviceGht", label: t`GHT`, hint: t`Glaucoma hemifield test`, note: asGiven, value: indices.ght ?? "–", wrap: true },
  ];
  return <Table caption={caption} {...(norms ? { note: t`Its normative data: ${norms}` } : {})} rows={rows} testId="indices-device" />;
}

export function IndicesTable({ result, analysis }: { result: MeasurementResult; analysis: ResultAnalysis | null }) {
  const { t, i18n } = useLingui();
  const pValue = usePValue();
  const names = useSourceNames();
  const imported = result.source ?? null;
  const serial = imported?.serial ?? null;
  const d = analysis?.display;
  const normative = analysis?.normative ?? null;
  const ght = normative?.ght?.outcome;
  const esterman = isEsterman(result);
  // A screening's values are levels seen, not thresholds: its index is the share of locations seen (screening.ts).
  const screening = !esterman && isScreening(result.strategy);
  const seen = seenAt(result.thresholds);
  const calibration = result.gazeCalibration === null ? t`Not tested` : result.gazeCalibration ? t`Passed` : t`Failed`;
  const database = normativeDatabaseText(result);
  const pattern = patternLabel[result.pattern];
  const octopus = t`Octopus`,
    humphrey = t`Humphrey`;
  const field: IndexRow[] = esterman
    ? [{ key: "esterman", label: t`Esterman score`, value: String(analysis?.estermanScore ?? result.estermanScore ?? "–"), unit: "%" }]
    : screening
      ? [
          { key: "seen", label: t`Seen`, value: String(seenPercent(seen)), unit: "%" },
          {
            key: "seenCount",
            label: t`Locations seen`,
            value: `${seen.filter((s) => s === true).length}/${seen.filter((s) => s !== null).length}`,
          },
        ]
      : [
          {
            key: "ms",
            label: t`MS`,
            hint: t`Mean sensitivity`,
            note: octopus,
            value: dB2(d?.meanSensitivity ?? Math.max(0, result.meanSensitivity)),
            unit: "dB",
          },
          {
            key: "md",
            label: t`MD`,
            hint: t`Mean defect`,
            note: t`Octopus: positive = loss`,
            value: dB2(d?.meanDefect ?? result.meanDefect),
            unit: "dB",
          },
          {
            key: "slv",
            label: t`sLV`,
            hint: t`Square root of loss variance`,
            note: octopus,
            value: dB2(d?.slv ?? result.squareRootLossVariance),
            unit: "dB",
          },
          {
            key: "hmd",
            label: t`MD`,
            hint: t`Mean deviation`,
            note: t`Humphrey: negative = loss`,
            value: dB2(d?.md),
            unit: "dB",
            p: pValue(normative?.globalLevels.tmd),
          },
          {
            key: "psd",
            label: t`PSD`,
            hint: t`Pattern standard deviation`,
            note: humphrey,
            value: dB2(d?.psd),
            unit: "dB",
            p: pValue(normative?.globalLevels.psd),
          },
          {
            key: "vfi",
            label: t`VFI`,
            hint: t`Visual field index`,
            // Humphrey defines the VFI for 24-2, 30-2 and 10-2 only: on G it is computed the same way, not Humphrey's (issue 20).
            note: result.pattern === Pattern.G ? t`not a Humphrey-defined index on ${pattern} (computed the same way)` : humphrey,
            value: String(d?.vfi ?? result.vfi ?? "–"),
            unit: "%",
          },
          {
            key: "ght",
            label: t`GHT`,
            hint: t`Glaucoma hemifield test`,
            note: humphrey,
            // With normals but no GHT, the pattern lacks the test's sectors (G, 10-2): say so instead of a dash.
            value: ght ? i18n._(ghtNames[ght]) : normative ? t`Not defined for ${pattern}` : "–",
          },
        ];
  const adaptive = result.stimuliInterval === StimuliUpdate.Adaptive;
  const fixation = [
    result.catchTrials.blindSpot.presentations > 0 ? t`Blind spot (Heijl-Krakau)` : null,
    result.gazeTracking ? t`Gaze tracking` : null,
  ].filter((x): x is string => x !== null);
  const parameters: IndexRow[] = [
    { key: "pattern", label: t`Pattern`, value: pattern },
    { key: "strategy", label: t`Strategy`, value: names.resultStrategy(result), ...(imported ? { wrap: true } : {}) },
    ...(result.sorsStage !== null ? [{ key: "sorsStage", label: t`SORS stage`, value: String(result.sorsStage), unit: t`locations` }] : []),
    { key: "stimulusSize", label: t`Stimulus size`, value: sizeName(result.stimulusSize, i18n) },
    { key: "showtime", label: t`Stimulus showtime`, value: String(result.stimuliShowtime), unit: "ms" },
    adaptive
      ? { key: "interval", label: t`Interval`, value: t`Adaptive`, unit: t`mean ${Math.round(result.meanUpdateTime)} ms` }
      : { key: "interval", label: t`Interval`, value: String(Math.round(result.stimuliInterval)), unit: "ms" },
    { key: "background", label: t`Background`, value: result.background.toFixed(1), unit: "asb" },
    { key: "fixation", label: t`Fixation monitoring`, value: fixation.length ? fixation.join(" + ") : t`None`, wrap: true },
  ];
  const conduct: IndexRow[] = [
    { key: "fp", label: t`False positives`, value: catchTrialText(result.catchTrials.falsePositive) },
    { key: "fn", label: t`False negatives`, value: catchTrialText(result.catchTrials.falseNegative) },
    { key: "fl", label: t`Fixation losses`, value: catchTrialText(result.catchTrials.blindSpot) },
    {
      key: "reliability",
      label: t`Reliability score`,
      value: result.reliabilityScore === null ? "–" : String(Math.round(result.reliabilityScore)),
      unit: "%",
    },
    { key: "duration", label: t`Test duration`, value: formatDuration(result.examinationTimeInSeconds), unit: t`m:s` },
    { key: "presentations", label: t`Presentations`, value: String(result.presentations) },
    { key: "maxIntensity", label: t`Maximum intensity`, value: String(Math.round(result.maxIntensity)), unit: "cd/m²" },
    {
      key: "normative",
      label: imported ? t`Isopter's normative database` : t`Normative database`,
      value: database ?? t`None`,
      wrap: true,
      ...(database ? { note: t`From public healthy controls, not a manufacturer's database` } : {}),
    },
    { key: "gazeCalibration", label: t`Gaze calibration`, value: calibration },
    imported
      ? {
          key: "device",
          label: t`Device`,
          value: names.resultSource(result),
          wrap: true,
          ...(serial ? { note: t`Serial number ${serial}` } : {}),
        }
      : { key: "device", label: t`Device`, value: result.deviceAlias ?? "–" },
  ];
  // An imported field's own pattern may lack Isopter's normals: Isopter's Humphrey-style indices are then dashes.
  const noNormals = imported && !esterman && !screening && !normative;
  return (
    <div className="indices-tables">
      <Table
        caption={imported ? t`Isopter's own analysis` : t`Indices`}
        {...(noNormals ? { note: t`Isopter has no normals for this pattern` } : {})}
        rows={field}
        testId="indices-field"
      />
      <StagesTable analysis={analysis} />
      {imported && <DeviceIndicesTable result={result} indices={imported.deviceIndices} />}
      <Table caption={t`Test parameters`} rows={parameters} testId="indices-parameters" />
      <Table caption={t`Test conduct`} rows={conduct} testId="indices-conduct" />
    </div>
  );
}
