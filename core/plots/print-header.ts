// The printed page's header (issues 19 and 20): the patient, the test's parameters, its indices each with its
// convention and the p-values of Humphrey's MD and PSD, its reliability, the normative database it was read with and
// the eye's progression analysis. Part of the one print scene (print-page.ts) the web prints and the CLI writes as PDF.

import { eyeProgression, type EyeProgression, type SeriesResult } from "../analytics/progression/eye-progression.ts";
import { resultDevice, type ResultDevice, type ResultStrategy, type SourcedResult } from "../analytics/series-sources.ts";
import type { EventStatus } from "../analytics/progression/events.ts";
import type { ResultAnalysis } from "../analytics/result-analysis.ts";
import { isScreeningResult, locationSeen } from "../analytics/seen.ts";
import type { ProbabilityLevel } from "../analytics/normative/tables.ts";
import { clinicTime, type ClinicTime } from "../model/clinic-time.ts";
import { Pattern, patternLabel, StimuliUpdate, type Eye, type Sex, type StimulusSize, type Strategy } from "../model/enums.ts";
import { strategyMessage } from "./code-names.ts";
import { deviceText, sourceLabel, strategyText } from "./source-names.ts";
import type { Box } from "./page.ts";
import { noSlopeLabels } from "./progression.ts";
import { printStagesLine } from "./print-stages.ts";
import { criteriaLine } from "./criteria-text.ts";
import { message, text, type Message, type SceneNode } from "./scene.ts";

export interface PrintHeaderInput {
  readonly patient: { readonly name: string; readonly uniqueId: string; readonly birthdate: string; readonly gender: Sex };
  /** Completed years on the test day. */
  readonly age: number;
  readonly result: {
    readonly pattern: Pattern;
    readonly eye: Eye;
    readonly strategy: Strategy;
    readonly thresholds: readonly number[];
    readonly examinationTimeInSeconds: number;
    readonly presentations: number;
    readonly background: number;
    readonly deviceAlias: string | null;
    /** Where an imported result came from (issue 29): its perimeter and its strategy as the file names them. */
    readonly source?: NonNullable<SourcedResult["source"]> | null;
    readonly meanDefect: number | null;
    readonly squareRootLossVariance: number | null;
    readonly sorsStage: number | null;
    readonly stimulusSize: StimulusSize;
    readonly stimuliShowtime: number;
    /** ms, or 9999 for adaptive (then `meanUpdateTime` says what it averaged). */
    readonly stimuliInterval: number;
    readonly meanUpdateTime: number;
    readonly reliabilityScore: number | null;
    readonly catchTrials: {
      readonly falsePositive: { readonly errors: number; readonly presentations: number };
      readonly falseNegative: { readonly errors: number; readonly presentations: number };
      readonly blindSpot: { readonly errors: number; readonly presentations: number };
    };
    readonly gazeTracking: unknown | null;
  };
  readonly analysis: ResultAnalysis;
  /** The clinician's own flag beside the catch trials (a measurement marked unreliable). */
  readonly markedReliable: boolean;
  /** When the test was taken, on the clinic's clock. */
  readonly taken: ClinicTime;
  /**
   * This eye's progression analysis on this pattern up to this result, and the days of its baseline pair; undefined
   * prints no line (a page printed without the patient's series), null says there is none.
   */
  readonly progression?: {
    readonly analysis: EyeProgression;
    readonly baselineDays: readonly [string, string] | null;
    /** The days of the analysis' changes of device or strategy (analysis.changes), on the clinic's clock. */
    readonly changeDays?: readonly string[];
    /** The device and strategy the reader limited the series to, when they did (series-sources.ts limitSeries). */
    readonly limitedTo?: { readonly device: ResultDevice | null; readonly strategy: ResultStrategy | null } | null;
  } | null;
}

const eyeMessages: Record<number, Message> = {
  0: message("plots.print.eye.right", "right eye (OD)"),
  1: message("plots.print.eye.left", "left eye (OS)"),
  2: message("plots.print.eye.both", "both eyes"),
  3: message("plots.print.eye.binocular", "binocular (OU)"),
};
const sexMessages: Record<number, Message> = {
  0: message("plots.print.sex.female", "female"),
  1: message("plots.print.sex.male", "male"),
  2: message("plots.print.sex.other", "other"),
};
const ghtMessages: Record<string, Message> = {
  "outside normal limits": message("plots.print.ght.outside", "outside normal limits"),
  borderline: message("plots.print.ght.borderline", "borderline"),
  "general reduction of sensitivity": message("plots.print.ght.reduction", "general reduction of sensitivity"),
  "abnormally high sensitivity": message("plots.print.ght.high", "abnormally high sensitivity"),
  "within normal limits": message("plots.print.ght.within", "within normal limits"),
};
/** Goldmann sizes; III adaptive grows with the loss. */
const sizeTexts: Record<StimulusSize, string | Message> = {
  0: "I",
  1: "II",
  2: "III",
  3: "IV",
  4: "V",
  5: message("plots.print.size.adaptive", "III adaptive"),
};
export const eventMessages: Record<EventStatus, Message> = {
  none: message("plots.print.progression.none", "No progression"),
  "possible progression": message("plots.print.progression.possible", "Possible progression"),
  "likely progression": message("plots.print.progression.likely", "Likely progression"),
};

const dash = "–";
const f2 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? dash : v.toFixed(2));
const pct = (c: { errors: number; presentations: number }) =>
  c.presentations > 0 ? `${c.errors}/${c.presentations} (${Math.round((100 * c.errors) / c.presentations)} %)` : dash;
const mmss = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};
/** A global index's probability among healthy eyes, as the plots' levels: "p < 5 %" ... "p < 0.5 %", else "p ≥ 5 %". */
const pText = (level: ProbabilityLevel | undefined): Message | string =>
  level === undefined
    ? ""
    : level > 0.05
      ? message("plots.print.pNormal", "p ≥ 5 %")
      : message("plots.print.pBelow", "p < {percent} %", { percent: level * 100 });
/** A probability as a percentage with one decimal (below 0.1 % as "< 0.1"). */
const percent = (p: number) => (p < 0.001 ? "< 0.1" : (100 * p).toFixed(1));

export type PrintProgression = NonNullable<PrintHeaderInput["progression"]>;

/**
 * The progression a printed result states: its eye on its pattern over the patient's results up to it (a page
 * printed later says what was known then), from the eye's baseline, with the baseline pair's days on the clinic's clock.
 */
export function printProgression(
  series: readonly SeriesResult[],
  printed: { readonly eye: Eye; readonly pattern: Pattern; readonly takenAt: string },
  baselineId: string | null,
  timeZone: string,
  limitedTo: PrintProgression["limitedTo"] = null,
): PrintProgression {
  const until = Date.parse(printed.takenAt);
  const upTo = series.filter((r) => Date.parse(r.takenAt) <= until);
  const analysis = eyeProgression(upTo, { eye: printed.eye, pattern: printed.pattern, baselineId });
  const day = (id: string) => clinicTime(upTo.find((r) => r.id === id)!.takenAt, timeZone).date;
  return {
    analysis,
    baselineDays: analysis.events ? [day(analysis.events.baseline[0]), day(analysis.events.baseline[1])] : null,
    changeDays: analysis.changes.map((c) => day(c.id)),
    limitedTo,
  };
}

/**
 * Which series the progression analysis read, when it is not simply one device and one strategy (issue 29): limited by
 * the reader to a device (and strategy), and where the device or the strategy changed; null when neither.
 */
export function seriesLine(p: PrintProgression): Message | null {
  const changes = p.analysis.changes;
  const limit = p.limitedTo && (p.limitedTo.device || p.limitedTo.strategy) ? p.limitedTo : null;
  if (!limit && changes.length === 0) return null;
  const scope = limit
    ? message("plots.print.series.limited", "only {source}", {
        source:
          limit.device && limit.strategy
            ? sourceLabel({ device: limit.device, strategy: limit.strategy })
            : limit.device
              ? deviceText(limit.device)
              : strategyText(limit.strategy!),
      })
    : message("plots.print.series.pooled", "all devices and strategies");
  const last = changes.at(-1);
  if (!last) return scope;
  const changed = message("plots.print.series.changed", "device or strategy changed on {dates}, last to {source}", {
    dates: (p.changeDays ?? changes.map((c) => c.takenAt.slice(0, 10))).join(", "),
    source: sourceLabel(last.to),
  });
  return message("plots.print.series.value", "{scope} · {changed}", { scope, changed });
}

/** The device that took a printed result: its alias on an Isopter headset, else the imported perimeter. */
function deviceValue(r: PrintHeaderInput["result"]): string | Message {
  if (!r.source) return r.deviceAlias ?? dash;
  return message("plots.print.deviceImported", "imported: {device}", { device: deviceText(resultDevice(r)) });
}

/**
 * The eye's progression in one line: events against the baseline pair and PoPLR's p, or why there is none. The VFI
 * trend is in the criteria line (criteriaLine), under GPA's rules, not repeated here under the MD slope's.
 */
export function progressionLine(p: PrintProgression): Message {
  const a = p.analysis;
  if (!a.events)
    return message(
      "plots.print.progression.unavailable",
      "No progression analysis: it needs at least 3 results of this pattern with a normative database.",
    );
  const baseline = p.baselineDays
    ? message("plots.print.progression.baseline", "baseline {first} and {second}", { first: p.baselineDays[0], second: p.baselineDays[1] })
    : "";
  const trend: Message = a.poplr
    ? message("plots.print.progression.poplr", "PoPLR (TD) p = {poplr} %", { poplr: percent(a.poplr.p) })
    : noSlopeLabels[a.noTrend ?? "too-few-results"];
  return message("plots.print.progression.line", "{events} ({baseline}) · {trend}", {
    events: eventMessages[a.events.status],
    baseline,
    trend,
  });
}

/**
 * Four columns (identity; test parameters; indices by convention; reliability), then two lines across the page: the
 * normative database and the progression analysis. Values that could outgrow their column carry a maxWidth, so a
 * long name or translation is set smaller, never cut or run into the next column.
 */
export function printHeaderNodes(input: PrintHeaderInput, box: Box, unitsPerMm: number): SceneNode[] {
  const { patient, result: r, analysis: a, taken } = input;
  const u = unitsPerMm;
  const size = 2.7 * u,
    small = 2.3 * u,
    line = 3.9 * u,
    top = 5 * u;
  // Room above the first line for accents over capitals ("Índices").
  const accentRoom = 0.8 * u;
  const caption = (x: number, label: Message) =>
    text(x, 0, label, { size: small, anchor: "start", baseline: "top", weight: "bold", fill: "plot-ink-muted" });
  const label = (x: number, y: number, l: Message, maxWidth: number) =>
    text(x, y, l, { size: small, anchor: "start", baseline: "top", fill: "plot-ink-muted", maxWidth });
  const value = (
    x: number,
    y: number,
    v: string | Message,
    maxWidth: number,
    style: { anchor?: "start" | "end"; weight?: "bold"; tabular?: boolean } = {},
  ) =>
    text(x, y, v, {
      size,
      anchor: style.anchor ?? "start",
      baseline: "top",
      maxWidth,
      ...(style.weight ? { weight: style.weight } : {}),
      ...(style.tabular ? { tabular: true } : {}),
    });

  // 1. Who and when.
  const colB = box.width * 0.29,
    colC = box.width * 0.575,
    colD = box.width * 0.81;
  const identity: SceneNode[] = [
    caption(0, message("plots.print.title", "Perimetry")),
    text(0, top, patient.name, { size: 4.4 * u, anchor: "start", baseline: "top", weight: "bold", maxWidth: colB - 3 * u }),
  ];
  const idRows: Array<[Message, string | Message]> = [
    [message("plots.print.patientId", "Patient ID"), patient.uniqueId],
    [
      message("plots.print.born", "Born"),
      message("plots.print.bornSex", "{date}, {sex}", { date: patient.birthdate, sex: sexMessages[patient.gender] ?? "" }),
    ],
    [message("plots.print.age", "Age at the test"), message("plots.print.ageValue", "{age} years", { age: input.age })],
    [
      message("plots.print.test", "Test"),
      message("plots.print.testEye", "{pattern} · {eye}", { pattern: patternLabel[r.pattern], eye: eyeMessages[r.eye] ?? "" }),
    ],
    [message("plots.print.taken", "Taken"), `${taken.date} ${taken.time.slice(0, 5)} (UTC${taken.offset})`],
    [message("plots.print.device", "Device"), deviceValue(r)],
  ];
  const idValueX = 19 * u;
  idRows.forEach(([l, v], i) => {
    const y = top + 6 * u + i * line;
    identity.push(label(0, y, l, idValueX - u), value(idValueX, y, v, colB - idValueX - 2 * u));
  });
  let bottom = top + 6 * u + idRows.length * line;

  // 2. How the test ran.
  const adaptive = r.stimuliInterval === StimuliUpdate.Adaptive;
  const blindSpot = r.catchTrials.blindSpot.presentations > 0,
    gaze = r.gazeTracking !== null;
  const parameters: Array<[Message, string | Message]> = [
    [message("plots.print.strategy", "Strategy"), r.source?.strategyName?.trim() || strategyMessage(r.strategy)],
    ...(r.sorsStage !== null
      ? [
          [
            message("plots.print.sorsStage", "SORS stage"),
            message("plots.print.sorsStageValue", "{count} locations", { count: r.sorsStage }),
          ] as [Message, Message],
        ]
      : []),
    [message("plots.print.stimulusSize", "Stimulus size"), sizeTexts[r.stimulusSize]],
    [message("plots.print.showtime", "Showtime"), `${r.stimuliShowtime} ms`],
    [
      message("plots.print.interval", "Interval"),
      adaptive
        ? message("plots.print.intervalAdaptive", "adaptive, mean {ms} ms", { ms: Math.round(r.meanUpdateTime) })
        : `${Math.round(r.stimuliInterval)} ms`,
    ],
    [message("plots.print.background", "Background"), `${r.background.toFixed(1)} asb`],
    [
      message("plots.print.fixation", "Fixation monitoring"),
      blindSpot && gaze
        ? message("plots.print.fixation.both", "blind spot + gaze tracking")
        : blindSpot
          ? message("plots.print.fixation.blindSpot", "blind spot (Heijl-Krakau)")
          : gaze
            ? message("plots.print.fixation.gaze", "gaze tracking")
            : message("plots.print.fixation.none", "none"),
    ],
    [
      message("plots.print.duration", "Duration"),
      message("plots.print.minutes", "{duration} min", { duration: mmss(r.examinationTimeInSeconds) }),
    ],
    [message("plots.print.stimuli", "Stimuli presented"), String(r.presentations)],
  ];
  const paramValueX = colB + 23 * u;
  const params: SceneNode[] = [caption(colB, message("plots.print.parameters", "Test parameters"))];
  parameters.forEach(([l, v], i) => {
    const y = top + i * line;
    params.push(label(colB, y, l, paramValueX - colB - u), value(paramValueX, y, v, colC - paramValueX - 2 * u));
  });
  bottom = Math.max(bottom, top + parameters.length * line);

  // 3. Indices, grouped by convention, with Humphrey's p-values.
  const nv = a.normative;
  const indices: SceneNode[] = [caption(colC, message("plots.print.indices", "Indices"))];
  const numberX = colC + 30 * u,
    pX = numberX + 1.5 * u;
  let y = top;
  const row = (l: Message, v: string, p: Message | string = "") => {
    indices.push(label(colC, y, l, numberX - colC - 13 * u), value(numberX, y, v, 13 * u, { anchor: "end", tabular: true }));
    if (p !== "")
      indices.push(text(pX, y, p, { size: small, anchor: "start", baseline: "top", weight: "bold", maxWidth: colD - pX - 2 * u }));
    y += line;
  };
  const group = (l: Message) => {
    indices.push(text(colC, y, l, { size: small, anchor: "start", baseline: "top", weight: "bold", maxWidth: colD - colC - 2 * u }));
    y += line;
  };
  if (a.estermanScore !== null) row(message("plots.print.esterman", "Esterman score"), `${a.estermanScore} %`);
  else if (isScreeningResult(r)) {
    const seen = r.thresholds.filter((v) => locationSeen(v, true)).length;
    row(message("plots.print.seen", "Seen"), `${Math.round((100 * seen) / Math.max(1, r.thresholds.length))} %`);
  } else {
    group(message("plots.print.octopus", "Octopus: MD positive = loss"));
    // Octopus' own abbreviations, as its printouts use them; the group's heading says which MD this is.
    row(message("plots.print.msAbbr", "MS"), `${f2(a.display.meanSensitivity)} dB`);
    row(message("plots.print.md", "MD"), `${f2(a.display.meanDefect ?? r.meanDefect)} dB`);
    row(message("plots.print.slv", "sLV"), `${f2(a.display.slv ?? r.squareRootLossVariance)} dB`);
    group(message("plots.print.humphrey", "Humphrey: MD negative = loss"));
    row(message("plots.print.md", "MD"), nv ? `${f2(nv.global.tmd)} dB` : dash, pText(nv?.globalLevels.tmd));
    row(message("plots.print.psd", "PSD"), nv ? `${f2(nv.global.psd)} dB` : dash, pText(nv?.globalLevels.psd));
    row(message("plots.print.vfi", "VFI"), nv ? `${Math.round(nv.global.vfi)} %` : dash, nv ? pText(nv.globalLevels.vfi) : "");
    // The GHT's outcome is words: it starts where the values do and may take the rest of the column.
    const ght = nv?.ght
      ? ghtMessages[nv.ght.outcome]!
      : nv
        ? message("plots.print.ghtNotDefined", "not defined for {pattern}", { pattern: patternLabel[r.pattern] })
        : dash;
    indices.push(label(colC, y, message("plots.print.ght", "GHT"), 12 * u), value(colC + 13 * u, y, ght, colD - colC - 15 * u));
    y += line;
    // Humphrey defines the VFI for its 24-2, 30-2 and 10-2 grids only: on G it is ours, computed the same way (issue 20).
    if (nv && r.pattern === Pattern.G) {
      indices.push(
        text(
          colC,
          y,
          message("plots.print.vfiNotHumphrey", "VFI on {pattern}: not a Humphrey-defined index (computed the same way)", {
            pattern: patternLabel[r.pattern],
          }),
          {
            size: small,
            anchor: "start",
            baseline: "top",
            fill: "plot-ink-muted",
            maxWidth: colD - colC - 2 * u,
          },
        ),
      );
      y += line;
    }
  }
  bottom = Math.max(bottom, y);

  // 4. Reliability.
  const ct = r.catchTrials;
  const reliable = a.reliability.reliable && input.markedReliable;
  const relRows: Array<[Message, string]> = [
    [message("plots.print.falsePositives", "False positives"), pct(ct.falsePositive)],
    [message("plots.print.falseNegatives", "False negatives"), pct(ct.falseNegative)],
    [message("plots.print.fixationLosses", "Fixation losses"), pct(ct.blindSpot)],
    [
      message("plots.print.reliabilityScore", "Reliability score"),
      r.reliabilityScore === null ? dash : `${Math.round(r.reliabilityScore)} %`,
    ],
  ];
  const reliability: SceneNode[] = [caption(colD, message("plots.print.reliability", "Reliability"))];
  relRows.forEach(([l, v], i) => {
    const yy = top + i * line;
    reliability.push(label(colD, yy, l, 22 * u), value(box.width, yy, v, box.width - colD - 22 * u, { anchor: "end", tabular: true }));
  });
  reliability.push(
    text(
      colD,
      top + relRows.length * line + u,
      reliable ? message("plots.print.reliable", "Reliable") : message("plots.print.unreliable", "Unreliable"),
      { size, anchor: "start", baseline: "top", weight: "bold", fill: reliable ? "plot-ink" : "plot-notice" },
    ),
  );

  // 5. Across the page: the normative database, then the progression analysis.
  const across: SceneNode[] = [];
  const acrossRow = (yy: number, l: Message, v: string | Message) =>
    across.push(label(0, yy, l, 27 * u), value(28 * u, yy, v, box.width - 28 * u));
  // Under the columns, or as low as the header's room needs for its lines.
  const series = input.progression ? seriesLine(input.progression) : null;
  const stages = printStagesLine(a.stages);
  const criteria = input.progression?.analysis.criteria ? criteriaLine(input.progression.analysis.criteria) : null;
  const lines = 1 + (input.progression !== undefined ? 1 : 0) + (criteria ? 1 : 0) + (series ? 1 : 0) + (stages ? 1 : 0);
  const last = Math.min(bottom + 1.5 * u, box.height - accentRoom - lines * line);
  acrossRow(
    last,
    message("plots.print.normals", "Normative database"),
    a.normative
      ? message("plots.print.normalsValue", "{database}: derived from public healthy controls, not a manufacturer's database", {
          database: a.normative.database,
        })
      : message("plots.print.noNormals", "none"),
  );
  if (input.progression !== undefined) {
    acrossRow(
      last + line,
      message("plots.print.progression", "Progression analysis"),
      input.progression
        ? progressionLine(input.progression)
        : message(
            "plots.print.progression.unavailable",
            "No progression analysis: it needs at least 3 results of this pattern with a normative database.",
          ),
    );
  }
  // Every published criterion read as one (issue 30), under the GPA line it widens.
  if (criteria) acrossRow(last + 2 * line, message("plots.print.criteria", "Progression criteria"), criteria);
  if (series) acrossRow(last + (criteria ? 3 : 2) * line, message("plots.print.series", "Series"), series);
  // The field's glaucoma stages (issue 30), last.
  if (stages) acrossRow(last + (lines - 1) * line, message("plots.print.stages", "Glaucoma stage"), stages);
  return [
    {
      kind: "group",
      x: box.x,
      y: box.y + accentRoom,
      role: "print.header",
      children: [...identity, ...params, ...indices, ...reliability, ...across],
    },
  ];
}
