// Where scaling out costs: `npx tsx bench/cluster/profile-diff.ts DIR [TOP]` reads the CPU profiles a bench:cluster
// run wrote with CPU_PROFILE_DIR=DIR and, per bus and per loaded window measured with both 1 and 3 processes, prints
// the main threads' time per function (self time, milliseconds per second of the window) of the 3 processes together
// against the 1 process's, the largest increases first, for each placement of the 3 (<bus>-3p-<placement>). What the
// 3 spend beyond the 1 is the price of scaling out (crossing the bus, with the headsets apart); where it goes is what
// to make cheaper. Only samples inside the window count (the profiles' timestamps and
// windows.json share the monotonic clock). Sampling costs CPU too, so compare the rows, not the bench's cores.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ProfiledWindow } from "./stage.ts";

interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }>;
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const [dir, topArg] = process.argv.slice(2);
if (!dir) {
  console.error("usage: npx tsx bench/cluster/profile-diff.ts DIR [TOP]   (DIR: a bench:cluster run's CPU_PROFILE_DIR)");
  process.exit(2);
}
const top = Number(topArg ?? 30);

/** The main thread's profile of each process in a cluster's folder, by pid (Node names them CPU.<date>.<time>.<pid>.<thread>.<n>). */
const mainProfiles = (folder: string) =>
  new Map(
    readdirSync(folder).flatMap((name) => {
      const m = /^CPU\.\d+\.\d+\.(\d+)\.0\.\d+\.cpuprofile$/.exec(name);
      return m ? [[Number(m[1]), JSON.parse(readFileSync(`${folder}/${name}`, "utf8")) as CpuProfile] as const] : [];
    }),
  );

const frameName = (f: CpuProfile["nodes"][number]["callFrame"]) =>
  `${f.functionName || "(anonymous)"} ${f.url.replace(`file://${root}`, "") || "(native)"}${f.lineNumber >= 0 ? `:${f.lineNumber + 1}` : ""}`;

/** Self time per function (ms per second of the window), the idle time left out, summed over the window's processes. */
const selfTime = (profiles: Map<number, CpuProfile>, w: ProfiledWindow) => {
  const perSecond = 1_000 / (w.to - w.from); // µs of samples -> ms per second of window
  const out = new Map<string, number>();
  for (const pid of w.pids) {
    const p = profiles.get(pid);
    if (!p) continue;
    const names = new Map(p.nodes.map((n) => [n.id, frameName(n.callFrame)]));
    let t = p.startTime;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i]!;
      const next = t + (p.timeDeltas[i + 1] ?? 0);
      if (t < w.from || next > w.to) continue;
      const name = names.get(p.samples[i]!)!;
      if (name.startsWith("(idle)")) continue;
      out.set(name, (out.get(name) ?? 0) + (next - t) * perSecond);
    }
  }
  return out;
};

const clusters = readdirSync(dir).filter((d) => /^\w+-1p$/.test(d));
if (clusters.length === 0) console.log(`no <bus>-1p folders in ${dir}: run bench:cluster with CPU_PROFILE_DIR=${dir}`);
for (const one of clusters) {
  const bus = one.replace(/-1p$/, "");
  // The first round's clusters (later rounds' folders end in -round<N>).
  for (const three of readdirSync(dir).filter((d) => d.startsWith(`${bus}-3p`) && !d.includes("-round"))) compare(bus, one, three);
}

function compare(bus: string, one: string, three: string) {
  if (!existsSync(`${dir}/${three}/windows.json`)) return;
  const windowsOf = (d: string) => JSON.parse(readFileSync(`${dir}/${d}/windows.json`, "utf8")) as ProfiledWindow[];
  const [profiles1, profiles3] = [mainProfiles(`${dir}/${one}`), mainProfiles(`${dir}/${three}`)];
  for (const w1 of windowsOf(one).filter((w) => w.headsets > 0)) {
    const w3 = windowsOf(three).find((w) => w.headsets === w1.headsets);
    if (!w3) continue;
    const [a, b] = [selfTime(profiles1, w1), selfTime(profiles3, w3)];
    const total = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);
    console.log(
      `\n${bus}, ${w1.headsets} headsets (${three}): main threads busy ${total(a).toFixed(0)} ms/s with 1 process, ${total(b).toFixed(0)} ms/s ` +
        `with 3 (+${(total(b) - total(a)).toFixed(0)}); self time per function, ms/s, largest increases first:`,
    );
    const rows = [...new Set([...a.keys(), ...b.keys()])].map((k) => ({ k, one: a.get(k) ?? 0, three: b.get(k) ?? 0 }));
    rows.sort((x, y) => y.three - y.one - (x.three - x.one));
    console.log("    +ms/s   1 proc  3 procs  function");
    const line = (r: (typeof rows)[number]) =>
      console.log(`${(r.three - r.one).toFixed(2).padStart(9)} ${r.one.toFixed(2).padStart(8)} ${r.three.toFixed(2).padStart(8)}  ${r.k}`);
    rows.slice(0, top).forEach(line);
    console.log("  ... and the largest decreases (work the 1 process does in one call that the 3 split differently):");
    rows.slice(-5).forEach(line);
  }
}
