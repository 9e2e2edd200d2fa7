import { expect, test } from "@playwright/test";
import { logIn, screenshot } from "./support.ts";

// A demo result on the perimetry page: every index and plot the accounts seed lists, the progression chart, the
// baseline and unreliable toggles, and the print layout ("the button shows loading for about 2 s, renders a hidden
// print layout, then prints", accounts seed §4).

test("a result shows its indices and plots; unreliable changes the chart; the print layout renders to PDF", async ({ page }) => {
  await logIn(page, "manager");
  await page.getByRole("region", { name: "Recent tests" }).getByRole("link").first().click();
  const results = page.getByTestId("perimetry-results");
  await expect(results).toBeVisible();

  for (const index of ["MS", "MD", "sLV", "PSD", "VFI", "GHT"])
    await expect(results.getByText(index, { exact: true }).first()).toBeVisible();
  for (const row of [
    "False positives",
    "False negatives",
    "Fixation losses",
    "Test duration",
    "Presentations",
    "Background",
    "Maximum intensity",
    "Normative database",
    "Gaze calibration",
    "Device",
  ]) {
    await expect(results.getByText(row, { exact: true }).first()).toBeVisible();
  }
  await expect(results.getByText("31.5", { exact: true })).toBeVisible();
  // The measurement list prints the stored MD, the indices table the recomputed one: the same number.
  const md = (await results.locator('tr[data-index="md"] td.num').first().textContent())!;
  await expect(page.locator('li[aria-current="true"]')).toContainText(`MD ${md} dB`);
  // Each plot is a figure named by its title, drawn on a canvas once Konva has loaded.
  for (const name of ["Greyscale", "Thresholds (dB)", "Total deviation probability", "Pattern deviation probability", "Gaze tracking"]) {
    await expect(results.getByRole("img", { name }).first()).toBeVisible();
  }
  await expect(results.locator("figure canvas").first()).toBeVisible();
  await screenshot(page, "result");

  // "Marking a measurement unreliable excludes it from the chart": its point leaves the progression summary.
  const counts = async () => (await page.getByText(/^ · \d+ results?$/).allTextContents()).join("|");
  const before = await counts();
  await results.getByRole("switch", { name: "Unreliable" }).first().click();
  await expect.poll(counts).not.toBe(before);
  await expect(results.getByRole("switch", { name: "Baseline" }).first()).toBeDisabled();
  await results.getByRole("switch", { name: "Unreliable" }).first().click();
  await expect.poll(counts).toBe(before);

  // Print: loading about 2 s with the hidden layout mounted, then the browser prints; the PDF has pages.
  await page.evaluate(() => {
    (window as unknown as { print: () => void }).print = () => document.body.setAttribute("data-printed", "1");
  });
  await results.getByTestId("print-button").click();
  await expect(results.getByTestId("print-button")).toBeDisabled();
  await expect(page.getByTestId("print-root")).toBeAttached();
  await expect(page.locator("body[data-printed='1']")).toBeAttached({ timeout: 5_000 });
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  expect(pages).toBeGreaterThanOrEqual(1);
  expect(pages).toBeLessThanOrEqual(2);
});
