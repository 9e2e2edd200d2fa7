import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./support.ts";

// Issue #9: "every plot and index of the seed is visible for results of each strategy the simulator runs". The demo
// clinic holds a result of each: Normal (Anna Schmidt, 24-2; Luca Bianchi, G), Dynamic (Maria Rossi's history) and
// Maria Rossi's showcase (simulator/server/demo/showcase.ts): SORS, SORS screening, supra-threshold, 1LT Esterman and
// 1LT C40. Each result page must show its indices and draw every plot it has on a canvas. One screenshot per plot type
// goes to e2e/screenshots/plot-<plot>.png, one per strategy to e2e/screenshots/result-<strategy>.png.

interface Stored {
  id: string;
  displayName: string;
  result: { pattern: number; strategy: number; eye: number; takenAt: string } | null;
}

/** The API with the page's own session (a second login of the same user would end the page's session). */
async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("accessToken"));
  const res = await page.request.get(`/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `GET ${path}: ${res.status()}`).toBe(true);
  return (await res.json()).data as T;
}

const Pattern = { P24_2: 1, G: 2, P30_2: 4, Esterman: 6, C40: 7 } as const;
const Strategy = { Normal: 1, SORS: 2, DS: 3, Supra: 4, OneLevel: 5, SORS_screening: 999 } as const;

const cases: Array<{ name: string; patient: string; pattern: number; strategy: number }> = [
  { name: "normal-24-2", patient: "Anna Schmidt", pattern: Pattern.P24_2, strategy: Strategy.Normal },
  { name: "normal-g", patient: "Luca Bianchi", pattern: Pattern.G, strategy: Strategy.Normal },
  { name: "dynamic-24-2", patient: "Maria Rossi", pattern: Pattern.P24_2, strategy: Strategy.DS },
  { name: "sors-24-2", patient: "Maria Rossi", pattern: Pattern.P24_2, strategy: Strategy.SORS },
  { name: "sors-screening-g", patient: "Maria Rossi", pattern: Pattern.G, strategy: Strategy.SORS_screening },
  { name: "supra-24-2", patient: "Maria Rossi", pattern: Pattern.P24_2, strategy: Strategy.Supra },
  { name: "1lt-esterman", patient: "Maria Rossi", pattern: Pattern.Esterman, strategy: Strategy.OneLevel },
  { name: "1lt-c40", patient: "Maria Rossi", pattern: Pattern.C40, strategy: Strategy.OneLevel },
  { name: "dynamic-30-2", patient: "Maria Rossi", pattern: Pattern.P30_2, strategy: Strategy.DS },
];

const screening = (strategy: number) => strategy === Strategy.Supra || strategy === Strategy.OneLevel;

/**
 * The plots a result must draw: the seed's Octopus and Humphrey plots, the normative ones with a database (24-2, and G
 * and 30-2 with the full-field normals);
 * a screening (supra-threshold, one level) is seen / not seen (core/plots/screening.ts).
 */
function expectedPlots(pattern: number, strategy: number): string[] {
  if (pattern === Pattern.Esterman) return ["esterman", "gaze"];
  if (screening(strategy)) return ["screening", "gaze"];
  const octopus = ["octopus.grayscale", "octopus.thresholds", "octopus.numerical", "octopus.loss", "humphrey.thresholds", "bebie", "gaze"];
  const normative = [
    "humphrey.totalDeviationProbability",
    "humphrey.patternDeviationProbability",
    "humphrey.totalDeviation",
    "humphrey.patternDeviation",
  ];
  return [Pattern.P24_2, Pattern.G, Pattern.P30_2].includes(pattern as 1 | 2 | 4) ? [...octopus, ...normative] : octopus;
}

/** A canvas with ink on it: some pixel differs from the first (the background). */
const inked = (page: Page, plot: string) =>
  page
    .locator(`[data-testid="result-display"] figure[data-plot="${plot}"] canvas`)
    .first()
    .evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      for (let i = 4; i < data.length; i += 4) if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) return true;
      return false;
    });

test("a result of each strategy shows its indices and draws every plot", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page, "manager");
  // Open the detailed analysis (client setting analysisExpanded) so the folded plots draw too.
  await page.evaluate(() =>
    localStorage.setItem(
      "clientSettings",
      JSON.stringify({ analysisExpanded: true, progressionChartExpanded: true, historyExpanded: false, pattern: 1 }),
    ),
  );
  const patients = await api<Array<{ id: string; name: string }>>(page, "patient/all");
  const shot = new Set<string>();

  for (const c of cases) {
    const patient = patients.find((p) => p.name === c.patient);
    expect(patient, c.patient).toBeDefined();
    const list = await api<Stored[]>(page, `perimetry/all?patientId=${patient!.id}`);
    const candidates = list
      .filter((m) => m.result && m.result.pattern === c.pattern && m.result.strategy === c.strategy)
      .sort((a, b) => b.result!.takenAt.localeCompare(a.result!.takenAt));
    expect(candidates.length, `${c.name}: a demo result`).toBeGreaterThan(0);
    // The latest of its kind: the difference plot then has an earlier result to compare with, where one exists.
    await page.goto(`/patient/${patient!.id}/perimetry/${candidates[0]!.id}`);
    const display = page.getByTestId("result-display");
    await expect(display).toBeVisible();

    const rows = await display.locator("tr[data-index]").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-index")));
    const conduct = [
      "fp",
      "fn",
      "fl",
      "reliability",
      "duration",
      "presentations",
      "maxIntensity",
      "normative",
      "gazeCalibration",
      "device",
    ];
    const sors = c.strategy === Strategy.SORS || c.strategy === Strategy.SORS_screening ? ["sorsStage"] : [];
    const parameters = ["pattern", "strategy", ...sors, "stimulusSize", "showtime", "interval", "background", "fixation"];
    const field =
      c.pattern === Pattern.Esterman
        ? ["esterman"]
        : screening(c.strategy)
          ? ["seen", "seenCount"]
          : ["ms", "md", "slv", "hmd", "psd", "vfi", "ght"];
    expect(rows, c.name).toEqual([...field, ...parameters, ...conduct]);
    if (c.pattern !== Pattern.Esterman && c.pattern !== Pattern.C40 && !screening(c.strategy))
      for (const k of ["hmd", "psd", "vfi", "ght"]) await expect(display.locator(`tr[data-index="${k}"] td.num`)).not.toHaveText("–");
    if (c.pattern === Pattern.Esterman) await expect(display.locator('tr[data-index="esterman"] td.num')).toHaveText(/^\d+$/);

    for (const plot of expectedPlots(c.pattern, c.strategy)) {
      const figure = display.locator(`figure[data-plot="${plot}"]`).first();
      await expect(figure, `${c.name}: ${plot}`).toBeVisible();
      await expect(figure.locator("canvas").first()).toBeAttached();
      await expect.poll(() => inked(page, plot), { message: `${c.name}: ${plot} drawn` }).toBe(true);
      if (!shot.has(plot)) {
        shot.add(plot);
        // The gaze chart scrolls sideways: its visible part.
        const target = plot === "gaze" ? display.locator(".gaze-scroll") : figure;
        await target.screenshot({ path: `e2e/screenshots/plot-${plot.replace(/\./g, "-")}.png` });
      }
    }
    if (c.name === "dynamic-24-2" || c.name === "normal-24-2") {
      const difference = display.locator('figure[data-plot="octopus.difference"]');
      if (!shot.has("octopus.difference") && (await difference.count()) > 0) {
        shot.add("octopus.difference");
        await difference.screenshot({ path: "e2e/screenshots/plot-octopus-difference.png" });
      }
    }
    await display.screenshot({ path: `e2e/screenshots/result-${c.name}.png` });
  }

  // The charts around the result: progression, legends and a history cell.
  const legends = page.locator(".plot-grid.legends figure");
  await page.goto(`/patient/${patients.find((p) => p.name === "Maria Rossi")!.id}/perimetry/all`);
  await expect(page.getByTestId("history-day").first()).toBeVisible();
  // History cells draw once near the viewport; the progression analysis above them (issue 30: nine criteria per eye)
  // now puts the first one further down.
  await page.getByTestId("history-cell").first().scrollIntoViewIfNeeded();
  await page.getByTestId("history-cell").first().locator("figure").first().screenshot({ path: "e2e/screenshots/plot-history-cell.png" });
  await page.getByTestId("progression").locator(".progression-chart figure").screenshot({ path: "e2e/screenshots/plot-progression.png" });
  await page.goto(`/patient/${patients.find((p) => p.name === "Anna Schmidt")!.id}/perimetry/all`);
  const first = page.getByTestId("history-cell").first().getByRole("link");
  await first.click();
  await expect(legends.first()).toBeVisible();
  for (const [i, name] of ["threshold-bands", "total-deviation", "values"].entries())
    await legends.nth(i).screenshot({ path: `e2e/screenshots/plot-legend-${name}.png` });
});
