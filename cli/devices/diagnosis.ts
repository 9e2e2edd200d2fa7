// `isopter devices diagnose SN`: what the server hears of one headset over a sampling window. Each new last-seen time
// is a heartbeat (with the battery); changes of connection and status are events; from those:
// heartbeat regularity, missed heartbeats (gaps well above the usual interval), the battery trend, and the last
// problems seen (disconnections, "not connected" statuses).

export interface Observation {
  /** ms since epoch */
  readonly at: number;
  readonly kind: "heartbeat" | "status" | "connection";
  readonly battery?: number | null;
  readonly status?: string;
  readonly connection?: string;
}

export interface Diagnosis {
  readonly deviceSn: string;
  readonly windowSeconds: number;
  readonly heartbeats: number;
  readonly interval: { readonly meanMs: number; readonly sdMs: number; readonly maxMs: number; readonly medianMs: number } | null;
  /** Regular when the intervals' coefficient of variation is below 25 % and none is over twice the median. */
  readonly regular: boolean | null;
  /** Heartbeats that should have come in the gaps longer than 1.5 median intervals. */
  readonly missedHeartbeats: number;
  readonly disconnections: number;
  readonly battery: { readonly first: number | null; readonly last: number | null; readonly perHour: number | null };
  readonly lastProblems: ReadonlyArray<{ readonly at: string; readonly what: string }>;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function diagnose(deviceSn: string, observations: readonly Observation[], windowMs: number): Diagnosis {
  const beats = observations.filter((o) => o.kind === "heartbeat");
  const times = beats.map((b) => b.at);
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  let interval: Diagnosis["interval"] = null;
  let regular: boolean | null = null;
  let missed = 0;
  if (gaps.length >= 2) {
    const sorted = [...gaps].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const m = mean(gaps);
    const sd = Math.sqrt(gaps.reduce((s, g) => s + (g - m) ** 2, 0) / (gaps.length - 1));
    interval = { meanMs: Math.round(m), sdMs: Math.round(sd), maxMs: Math.max(...gaps), medianMs: median };
    regular = sd / m < 0.25 && Math.max(...gaps) <= 2 * median;
    missed = gaps.reduce((n, g) => n + (g > 1.5 * median ? Math.round(g / median) - 1 : 0), 0);
  }
  const levels = beats.filter((b) => b.battery !== undefined && b.battery !== null) as Array<Observation & { battery: number }>;
  const first = levels[0],
    last = levels[levels.length - 1];
  const hours = first && last ? (last.at - first.at) / 3_600_000 : 0;
  const problems = observations
    .filter((o) => (o.kind === "connection" && o.connection === "DISCONNECTED") || (o.kind === "status" && o.status === "notconnected"))
    .map((o) => ({ at: new Date(o.at).toISOString(), what: o.kind === "connection" ? "disconnected" : "status not connected" }));
  return {
    deviceSn,
    windowSeconds: Math.round(windowMs / 1000),
    heartbeats: beats.length,
    interval,
    regular,
    missedHeartbeats: missed,
    disconnections: observations.filter((o) => o.kind === "connection" && o.connection === "DISCONNECTED").length,
    battery: {
      first: first?.battery ?? null,
      last: last?.battery ?? null,
      perHour: first && last && hours > 0 ? Math.round(((last.battery - first.battery) / hours) * 10) / 10 : null,
    },
    lastProblems: problems.slice(-5),
  };
}

export function diagnosisText(d: Diagnosis): string {
  const lines = [
    `Device ${d.deviceSn}, observed for ${d.windowSeconds} s on the live socket`,
    `  heartbeats        ${d.heartbeats}`,
    d.interval
      ? `  interval          mean ${(d.interval.meanMs / 1000).toFixed(2)} s, sd ${(d.interval.sdMs / 1000).toFixed(2)} s, max ${(d.interval.maxMs / 1000).toFixed(2)} s: ${d.regular ? "regular" : "IRREGULAR"}`
      : "  interval          too few heartbeats to judge",
    `  missed heartbeats ${d.missedHeartbeats}`,
    `  disconnections    ${d.disconnections}`,
    `  battery           ${d.battery.first === null ? "no reading" : `${d.battery.first}% -> ${d.battery.last}%${d.battery.perHour === null ? "" : ` (${d.battery.perHour >= 0 ? "+" : ""}${d.battery.perHour} %/h)`}`}`,
    d.lastProblems.length
      ? `  last problems\n${d.lastProblems.map((p) => `    ${p.at}  ${p.what}`).join("\n")}`
      : "  last problems     none seen",
  ];
  return lines.join("\n") + "\n";
}
