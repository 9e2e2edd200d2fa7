import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./support.ts";

// Issue 20: G and 30-2 results are read with normals (the full-field model from the Iowa healthy controls): TD and PD
// probability maps, Humphrey's MD with its p-value, PSD, VFI, the GHT where defined, the test parameters and each
// index's convention, on screen and in the print layout; the progression analysis beside the mean-defect chart.
// Screenshots: e2e/screenshots/result-g-normals.png, result-30-2-normals.png, print-30-2.png, progression-analysis-g.png.

interface Stored { id: string; result: { pattern: number; strategy: number; eye: number; takenAt: string } | null }

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("accessToken"));
  const res = await page.request.get(`/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `GET ${path}: ${res.status()}`).toBe(true);
  return (await res.json()).data as T;
}

const G = 2, P30_2 = 4, Normal = 1, DS = 3;

async function openLatest(page: Page, patientName: string, pattern: number, strategy: number) {
  const patients = await api<Array<{ id: string; name: string }>>(page, "patient/all");
  const patient = patients.find((p) => p.name === patientName)!;
  const list = await api<Stored[]>(page, `perimetry/all?patientId=${patient.id}`);
  const latest = list.filter((m) => m.result?.pattern === pattern && m.result.strategy === strategy)
    .sort((a, b) => b.result!.takenAt.localeCompare(a.result!.takenAt))[0];
  expect(latest, `${patientName}: a result of pattern ${pattern}`).toBeDefined();
  await page.goto(`/patient/${patient.id}/perimetry/${latest!.id}`);
  const display = page.getByTestId("result-display");
  await expect(display).toBeVisible();
  return display;
}

const inked = (page: Page, plot: string) =>
  page.locator(`[data-testid="result-display"] figure[data-plot="${plot}"] canvas`).first().evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    for (let i = 4; i < data.length; i += 4) if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) return true;
    return false;
  });

test("G and 30-2 results show their normative analysis, parameters and conventions; the progression analysis sits beside the chart", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await logIn(page, "manager");
  await page.evaluate(() => localStorage.setItem("clientSettings", JSON.stringify({ analysisExpanded: true, progressionChartExpanded: true, historyExpanded: false, pattern: 2 })));

  // G (Luca Bianchi's Normal history).
  let display = await openLatest(page, "Luca Bianchi", G, Normal);
  const value = (k: string) => display.locator(`tr[data-index="${k}"] td.num`);
  await expect(value("normative")).toContainText("Isopter full-field model 1, G (Iowa healthy controls)");
  await expect(display.locator('tr[data-index="normative"] .index-note')).toHaveText("From public healthy controls, not a manufacturer's database");
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

  // G's printout carries the eye's progression in one line, inside the header.
  await page.evaluate(() => { (window as unknown as { print: () => void }).print = () => document.body.setAttribute("data-printed", "1"); });
  await display.getByTestId("print-button").click();
  await expect(page.locator("body[data-printed='1']")).toBeAttached({ timeout: 5_000 });
  const printG = page.getByTestId("print-page");
  await expect(printG.getByTestId("print-progression")).toHaveText(/progression/i);
  await page.emulateMedia({ media: "print" });
  const inside = await printG.evaluate((el) => {
    const header = el.querySelector(".print-header")!.getBoundingClientRect();
    const line = el.querySelector('[data-testid="print-progression"]')!.getBoundingClientRect();
    const device = el.querySelector('tr[data-index="device"]')!.getBoundingClientRect();
    return line.bottom <= header.bottom + 0.5 && line.right <= header.right + 0.5 && device.bottom <= header.bottom + 0.5;
  });
  await page.screenshot({ path: "e2e/screenshots/print-g.png", fullPage: true });
  expect(inside, "the progression line and the last conduct row fit the printed header").toBe(true);
  await page.emulateMedia({ media: "screen" });

  // 30-2 (Maria Rossi's Dynamic showcase): the GHT is defined on 30-2.
  display = await openLatest(page, "Maria Rossi", P30_2, DS);
  await expect(value("normative")).toContainText("Isopter full-field model 1, 30-2 (Iowa healthy controls)");
  await expect(value("ght")).not.toHaveText(/–|Not defined/);
  await expect(display.locator('tr[data-index="psd"] td.p')).toHaveText(/^p (<|≥) [\d.]+ %$/);
  await expect(value("pattern")).toHaveText("30-2");
  await expect(value("strategy")).toHaveText("Dynamic");
  for (const plot of ["humphrey.totalDeviationProbability", "humphrey.patternDeviationProbability"])
    await expect.poll(() => inked(page, plot), { message: `30-2: ${plot} drawn` }).toBe(true);
  await display.screenshot({ path: "e2e/screenshots/result-30-2-normals.png" });

  // The print layout carries the same tables (parameters, conventions, p-values).
  await page.evaluate(() => { (window as unknown as { print: () => void }).print = () => document.body.setAttribute("data-printed", "1"); });
  await display.getByTestId("print-button").click();
  await expect(page.locator("body[data-printed='1']")).toBeAttached({ timeout: 5_000 });
  const print = page.getByTestId("print-page");
  await expect(print.locator('tr[data-index="hmd"] .index-note')).toHaveText("Humphrey: negative = loss");
  await expect(print.locator('tr[data-index="interval"]')).toBeAttached();
  // One 30-2 result of this eye: no progression line on paper (it needs 3 results).
  await expect(print.getByTestId("print-progression")).toHaveCount(0);
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: "e2e/screenshots/print-30-2.png", fullPage: true });
});
