import { expect, test, type Page } from "@playwright/test";
import { clippedPrintHeader } from "./clipping.ts";
import { logIn } from "./support.ts";

// Issue 20: G and 30-2 results are read with normals (the full-field model from the Iowa healthy controls): TD and PD
// probability maps, Humphrey's MD with its p-value, PSD, VFI, the GHT where defined, the test parameters and each
// index's convention, on screen and in the print layout; the progression analysis beside the mean-defect chart.
// Screenshots: e2e/screenshots/result-g-normals.png, result-30-2-normals.png, print-g.png, print-30-2.png,
// progression-analysis-g.png.

interface Stored {
  id: string;
  result: { pattern: number; strategy: number; eye: number; takenAt: string } | null;
}

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("accessToken"));
  const res = await page.request.get(`/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `GET ${path}: ${res.status()}`).toBe(true);
  return (await res.json()).data as T;
}

const G = 2,
  P30_2 = 4,
  Normal = 1,
  DS = 3;

async function openLatest(page: Page, patientName: string, pattern: number, strategy: number) {
  const patients = await api<Array<{ id: string; name: string }>>(page, "patient/all");
  const patient = patients.find((p) => p.name === patientName)!;
  const list = await api<Stored[]>(page, `perimetry/all?patientId=${patient.id}`);
  const latest = list
    .filter((m) => m.result?.pattern === pattern && m.result.strategy === strategy)
    .sort((a, b) => b.result!.takenAt.localeCompare(a.result!.takenAt))[0];
  expect(latest, `${patientName}: a result of pattern ${pattern}`).toBeDefined();
  await page.goto(`/patient/${patient.id}/perimetry/${latest!.id}`);
  const display = page.getByTestId("result-display");
  await expect(display).toBeVisible();
  return display;
}

const inked = (page: Page, plot: string) =>
  page
    .locator(`[data-testid="result-display"] figure[data-plot="${plot}"] canvas`)
    .first()
    .evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      for (let i = 4; i < data.length; i += 4) if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) return true;
      return false;
    });

test("G and 30-2 results show their normative analysis, parameters and conventions; the progression analysis sits beside the chart", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await logIn(page, "manager");
  await page.evaluate(() =>
    localStorage.setItem(
      "clientSettings",
      JSON.stringify({ analysisExpanded: true, progressionChartExpanded: true, historyExpanded: false, pattern: 2 }),
    ),
  );

  // G (Luca Bianchi's Normal history).
  let display = await openLatest(page, "Luca Bianchi", G, Normal);
  const value = (k: string) => display.locator(`tr[data-index="${k}"] td.num`);
  await expect(value("normative")).toContainText("Isopter full-field model 2, G (Iowa healthy controls, SUNY-IU spread)");
  await expect(display.locator('tr[data-index="normative"] .index-note')).toHaveText(
    "From public healthy controls, not a manufacturer's database",
  );
  await expect(value("ght")).toHaveText("Not defined for G");
  for (const k of ["hmd", "psd", "vfi"]) await expect(value(k)).not.toHaveText("–");
  await expect(display.locator('tr[data-index="hmd"] td.p')).toHaveText(/^p (<|≥) [\d.]+ %$/);
  await expect(display.locator('tr[data-index="md"] .index-note')).toHaveText("Octopus: positive = loss");
  await expect(display.locator('tr[data-index="hmd"] .index-note')).toHaveText("Humphrey: negative = loss");
  await expect(value("pattern")).toHaveText("G");
  await expect(value("fixation")).not.toHaveText("None");
  for (const plot of ["humphrey.totalDeviationProbability", "humphrey.patternDeviationProbability"])
    await expect.poll(() => inked(page, plot), { message: `G: ${plot} drawn` }).toBe(true);
  await display.screenshot({ path: "e2e/screenshots/result-g-normals.png" });

  // The progression analysis for G beside the mean-defect chart.
  const analysis = page.getByTestId("progression-analysis");
  await expect(analysis).toBeVisible();
  await expect(analysis.locator('[data-fact="used"]').first()).toContainText("analysed");
  await analysis.screenshot({ path: "e2e/screenshots/progression-analysis-g.png" });

  // G's printout: the print scene's header (the one the CLI's PDF draws) states the parameters, the conventions and
  // the eye's progression in one line; every header text stays in the header and clear of the others.
  await printAndCheck(page, display, "print-g", [
    "Test parameters",
    "Stimulus size",
    "Fixation monitoring",
    "Octopus: MD positive = loss",
    "Humphrey: MD negative = loss",
    "not defined for G",
    "Progression analysis",
  ]);
  const progressionLine = await page
    .getByTestId("print-page")
    .locator("text")
    .evaluateAll((texts) => {
      const all = texts.map((t) => t.textContent ?? "");
      return all[all.indexOf("Progression analysis") + 1] ?? "";
    });
  expect(progressionLine).toMatch(/^(No|Possible|Likely) progression \(baseline|^No progression analysis: it needs/);
  await page.emulateMedia({ media: "screen" });

  // 30-2 (Maria Rossi's Dynamic showcase): the GHT is defined on 30-2.
  display = await openLatest(page, "Maria Rossi", P30_2, DS);
  await expect(value("normative")).toContainText("Isopter full-field model 2, 30-2 (Iowa healthy controls, SUNY-IU spread)");
  await expect(value("ght")).not.toHaveText(/–|Not defined/);
  await expect(display.locator('tr[data-index="psd"] td.p')).toHaveText(/^p (<|≥) [\d.]+ %$/);
  await expect(value("pattern")).toHaveText("30-2");
  await expect(value("strategy")).toHaveText("Dynamic");
  for (const plot of ["humphrey.totalDeviationProbability", "humphrey.patternDeviationProbability"])
    await expect.poll(() => inked(page, plot), { message: `30-2: ${plot} drawn` }).toBe(true);
  await display.screenshot({ path: "e2e/screenshots/result-30-2-normals.png" });

  // The printout states the same parameters, conventions and p-values; the GHT is defined on 30-2.
  await printAndCheck(page, display, "print-30-2", ["Interval", "Humphrey: MD negative = loss", "Progression analysis"]);
});

/**
 * Prints the shown result (window.print stubbed), checks the print scene's header holds `words`, that each header
 * text lies inside the header's 20 % of the page and overlaps no other header text, and takes a screenshot of the
 * page as it would print.
 */
async function printAndCheck(page: Page, display: ReturnType<Page["getByTestId"]>, screenshot: string, words: readonly string[]) {
  await page.evaluate(() => {
    (window as unknown as { print: () => void }).print = () => document.body.setAttribute("data-printed", "1");
  });
  await display.getByTestId("print-button").click();
  await expect(page.locator("body[data-printed='1']")).toBeAttached({ timeout: 5_000 });
  const print = page.getByTestId("print-page");
  const header = print.locator('g[data-role="print.header"]');
  for (const w of words) await expect(header.locator("text", { hasText: w }).first(), w).toBeAttached();
  await page.emulateMedia({ media: "print" });
  const problems = await clippedPrintHeader(page);
  await page.screenshot({ path: `e2e/screenshots/${screenshot}.png`, fullPage: true });
  expect(problems, "header texts inside the header, none over another").toEqual([]);
}
