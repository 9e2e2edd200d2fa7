import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CDPSession } from "playwright";

// The profile pass (--profile): over one live window, V8's sampling profiler (where the main thread's time goes, by
// function and by script) and precise coverage with call counts (how often each function ran: a component's call
// count is its render count). Run on an unminified build so names survive; its timings are distorted by the
// instrumentation and are not the bench's figures.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}
interface Coverage {
  result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ startOffset: number; count: number }> }> }>;
}

export interface ProfileReport {
  readonly seconds: number;
  /** Self time by function, ms. */
  readonly self: ReadonlyArray<{ name: string; where: string; ms: number }>;
  /** Self time by script (file name) or V8's own buckets ((garbage collector), (program), (idle)), ms. */
  readonly byScript: ReadonlyArray<{ script: string; ms: number }>;
  /** Time inside each named function, its callees included (each sample counted once per name), ms. */
  readonly inclusive: ReadonlyArray<{ name: string; ms: number }>;
  /** Calls of the web app's components (a component's calls are its renders), per name. */
  readonly calls: ReadonlyArray<{ name: string; where: string; count: number }>;
}

const base = (url: string) => (url ? url.replace(/^.*\//, "").replace(/\?.*$/, "") : "");

export async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 250 });
  await cdp.send("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  await cdp.send("Profiler.takePreciseCoverage"); // resets the counters: only the window counts
  await cdp.send("Profiler.start");
}

/** Names of the components (capitalised functions) declared in the web app's sources: the calls worth counting. */
export const webComponentNames = (webDir: string): ReadonlySet<string> => {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name))
        for (const m of readFileSync(path, "utf8").matchAll(/(?:function|const)\s+([A-Z][A-Za-z0-9]*)/g)) names.add(m[1]!);
    }
  };
  walk(webDir);
  return names;
};

export async function stopProfile(
  cdp: CDPSession,
  interesting: readonly string[],
  components: ReadonlySet<string>,
): Promise<ProfileReport> {
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
  const coverage = (await cdp.send("Profiler.takePreciseCoverage")) as unknown as Coverage;
  await cdp.send("Profiler.stopPreciseCoverage");
  await cdp.send("Profiler.disable");

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n: ProfileNode) => n.callFrame.functionName || "(anonymous)";
  const whereOf = (n: ProfileNode) => (n.callFrame.url ? `${base(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : "");

  const self = new Map<string, { name: string; where: string; ms: number }>();
  const byScript = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    const node = byId.get(samples[i]!);
    if (!node) continue;
    const key = `${nameOf(node)} ${whereOf(node)}`;
    const s = self.get(key) ?? { name: nameOf(node), where: whereOf(node), ms: 0 };
    s.ms += ms;
    self.set(key, s);
    const script = base(node.callFrame.url) || nameOf(node);
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const name = nameOf(byId.get(id)!);
      if (!seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
      }
    }
  }

  const calls = new Map<string, { name: string; where: string; count: number }>();
  for (const script of coverage.result) {
    for (const f of script.functions) {
      const count = f.ranges[0]?.count ?? 0;
      if (count === 0 || !components.has(f.functionName)) continue;
      const key = `${f.functionName} ${base(script.url)}`;
      const c = calls.get(key) ?? { name: f.functionName, where: base(script.url), count: 0 };
      c.count += count;
      calls.set(key, c);
    }
  }

  const top = <T extends { ms: number }>(xs: Iterable<T>, n: number) => [...xs].sort((a, b) => b.ms - a.ms).slice(0, n);
  const wanted = new Set(interesting);
  return {
    seconds: (profile.endTime - profile.startTime) / 1e6,
    self: top(self.values(), 25),
    byScript: top(
      [...byScript].map(([script, ms]) => ({ script, ms })),
      12,
    ),
    inclusive: [...inclusive]
      .filter(([name]) => wanted.has(name))
      .map(([name, ms]) => ({ name, ms }))
      .sort((a, b) => b.ms - a.ms),
    calls: [...calls.values()].sort((a, b) => b.count - a.count).slice(0, 25),
  };
}
