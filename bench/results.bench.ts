// `npm run bench:results`: how long the perimetry page of a patient with 40 results takes to draw once the data
// arrive (aim: at most 200 ms, issue #9). Debian's Chromium against the whole stack started here: the web app built
// into a temporary folder (or BENCH_WEB_ROOT, an existing build), the clinic server on an ephemeral port over PGlite in
// memory, the demo clinic plus one patient with 40 results (20 visits, both eyes) from the perimetry engine.
//
// Measured per page load, from the browser's own clocks: "data arrived" = the responseEnd of the measurements request
// (GET /api/perimetry/all), "drawn" = web/results' RESULTS_DRAWN_MARK (every plot mounted has drawn its Konva layer);
// RESULTS_DATA_MARK (the measurements reaching the result side) splits the time into decoding and drawing. Each
// scenario loads the page once cold (Konva's chunk not cached yet), then BENCH_RUNS times warm. Prints figures;
// asserts nothing (the machine is shared). BENCH_PROFILE=file.cpuprofile builds unminified and records one more warm
// load of the first scenario with Chromium's profiler, printing the functions with the most self time.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright";
import { build } from "vite";
import { Eye, Pattern, Strategy } from "../core/model/enums.ts";
import { newMeasurement, type Measurement } from "../core/model/measurement.ts";
import { measurementConfigWith } from "../core/rules/defaults.ts";
import { engineResult } from "../simulator/server/demo/engine-results.ts";
import { seedDemo } from "../simulator/server/demo/seed.ts";
import { startServer } from "../simulator/server/server.ts";
import { newId } from "../simulator/server/store/ids.ts";
import { insertMeasurement } from "../simulator/server/store/measurements.ts";
import { insertPatient } from "../simulator/server/store/patients.ts";
import { RESULTS_DATA_MARK, RESULTS_DRAWN_MARK } from "../web/results/draw-timing.ts";
import { loadAverage } from "./figures.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const VISITS = 20; // x 2 eyes = 40 results
const AIM_MS = 200;
const password = "Bench-Pass-1!";
const birthdate = "1956-04-11";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function webRoot(): Promise<{ dir: string; cleanup: () => void }> {
  if (process.env.BENCH_WEB_ROOT) return { dir: process.env.BENCH_WEB_ROOT, cleanup: () => undefined };
  // Our own build (the marks live in web/results), away from dist/web, which other runs rebuild as they please.
  const dir = mkdtempSync(join(tmpdir(), "isopter-bench-web-"));
  const t0 = performance.now();
  await build({
    configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)),
    logLevel: "warn",
    build: { outDir: dir, emptyOutDir: true, ...(process.env.BENCH_PROFILE ? { minify: false } : {}) },
  });
  console.log(`web app built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function seedPatient(db: Awaited<ReturnType<typeof startServer>>["db"]): Promise<{ patientId: string; latestId: string }> {
  const org = (await db.query<{ id: string }>("select organisation_id as id from users where username = 'manager'"))[0]!.id;
  const patientId = newId();
  const now = Date.now();
  let latestId = "";
  await db.transaction(async (tx) => {
    await insertPatient(
      tx,
      org,
      patientId,
      { name: "Bench Forty", uniqueId: "B-40", gender: 0, lang: "en", birthdate },
      new Date(now).toISOString(),
    );
    for (let v = 0; v < VISITS; v++) {
      const yearsAgo = (VISITS - v) * 0.25;
      const takenAt = new Date(now - yearsAgo * 365.25 * 86400_000);
      for (const eye of [Eye.Right, Eye.Left]) {
        const id = newId();
        const at = new Date(takenAt.getTime() + eye * 600_000).toISOString();
        const config = measurementConfigWith({
          patientId,
          deviceSn: null,
          displayName: `Visit ${v + 1}`,
          eye,
          pattern: Pattern.P24_2,
          strategy: Strategy.DS,
        });
        const m: Measurement = {
          ...newMeasurement(config, id, at),
          result: engineResult({
            measurementId: id,
            patientId,
            takenAt: at,
            birthdate,
            ageYears: (Date.parse(at) - Date.parse(birthdate)) / (365.25 * 86400_000),
            yearsIntoCourse: VISITS * 0.25 - yearsAgo,
            course: "early-glaucoma",
            eye,
            pattern: Pattern.P24_2,
            strategy: Strategy.DS,
            deviceAlias: "Room 1",
            seed: 4000 + v * 2 + eye,
          }),
        };
        await insertMeasurement(tx, org, m, null);
        latestId = id;
      }
    }
  });
  return { patientId, latestId };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** One more load under Chromium's sampling profiler: saves the profile, prints the top self times. */
async function profileOnce(page: Page, url: string, file: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  const timing = await loadOnce(page, url);
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  writeFileSync(file, JSON.stringify(profile));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byName = new Map<string, number>();
  for (const n of profile.nodes) {
    const key = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + (self.get(n.id) ?? 0));
  }
  console.log(`profile (${file}), load of ${ms(timing.total)}; top self time:`);
  for (const [k, v] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${v.toFixed(1).padStart(7)} ms  ${k}`);
}

interface Timing {
  total: number;
  decode: number;
  draw: number;
  plots: number;
}

/** One page load; the times from the page's own performance entries. */
async function loadOnce(page: Page, url: string): Promise<Timing> {
  await page.goto(url);
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, RESULTS_DRAWN_MARK, { timeout: 30_000 });
  return page.evaluate(
    ([dataMark, drawnMark]) => {
      const fetches = performance
        .getEntriesByType("resource")
        .filter((e) => /\/api\/perimetry\/all\b/.test(e.name)) as PerformanceResourceTiming[];
      const arrived = fetches[0]!.responseEnd;
      const data = performance.getEntriesByName(dataMark)[0]!.startTime;
      const drawn = performance.getEntriesByName(drawnMark)[0]!.startTime;
      return {
        total: drawn - arrived,
        decode: data - arrived,
        draw: drawn - data,
        plots: document.querySelectorAll("figure[data-plot] canvas").length,
      };
    },
    [RESULTS_DATA_MARK, RESULTS_DRAWN_MARK] as const,
  );
}

async function main() {
  const web = await webRoot();
  const server = await startServer({ storage: { kind: "pglite", dataDir: undefined }, port: 0, webRoot: web.dir });
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    await seedDemo(server.db, { password, headsets: 1, results: "fixtures" });
    const { patientId, latestId } = await seedPatient(server.db);
    const login = await fetch(`${server.url}/api/login`, { method: "POST", body: JSON.stringify({ username: "manager", password }) });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    console.log(
      `patient with ${VISITS * 2} results; Chromium ${browser.version()}; ${RUNS} warm loads per scenario after one cold load (load average ${loadAverage()})`,
    );

    const scenarios: Array<{ name: string; settings: Record<string, unknown> }> = [
      { name: "default panels (result, progression)", settings: {} },
      {
        name: "every panel open (analysis, progression, history)",
        settings: { analysisExpanded: true, progressionChartExpanded: true, historyExpanded: true },
      },
    ];
    const verdicts: string[] = [];
    for (const scenario of scenarios) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript(
        ([t, s]) => {
          sessionStorage.setItem("accessToken", t);
          localStorage.setItem(
            "clientSettings",
            JSON.stringify({ analysisExpanded: false, progressionChartExpanded: true, historyExpanded: false, pattern: 1, ...s }),
          );
        },
        [token, scenario.settings] as const,
      );
      const page = await context.newPage();
      const url = `${server.url}/patient/${patientId}/perimetry/${latestId}`;
      const cold = await loadOnce(page, url);
      const warm: Timing[] = [];
      for (let i = 0; i < RUNS; i++) warm.push(await loadOnce(page, url));
      if (process.env.BENCH_PROFILE && scenario === scenarios[0]) await profileOnce(page, url, process.env.BENCH_PROFILE);
      await context.close();
      const sorted = (k: keyof Timing) => warm.map((w) => w[k]).sort((a, b) => a - b);
      const total = sorted("total");
      console.log(
        `${scenario.name}: ${cold.plots} plots drawn\n` +
          `  data arrived -> drawn: median ${ms(percentile(total, 50))}, p95 ${ms(percentile(total, 95))}, min ${ms(total[0]!)}, max ${ms(total.at(-1)!)}; cold load ${ms(cold.total)}\n` +
          `  of which decode + first render (to ${RESULTS_DATA_MARK}): median ${ms(percentile(sorted("decode"), 50))}; ` +
          `render + draw (to ${RESULTS_DRAWN_MARK}): median ${ms(percentile(sorted("draw"), 50))}`,
      );
      verdicts.push(`${scenario.name}: ${percentile(total, 50) <= AIM_MS ? "within" : "OVER"} the ${AIM_MS} ms aim (median)`);
    }
    for (const v of verdicts) console.log(v);
  } finally {
    await browser.close();
    await server.close();
    web.cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
