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

// "Plots scale with the space they have" (issue 21: they stayed 240 px in a wide window): inside the seeds' zoom wrapper
// (scheduling seed §2 "Shared interface pieces"), larger than their 240 px scenes in a wide window and within a phone's
// width, square, drawn on a canvas of the size shown (the Konva stage scaled, not a stretched bitmap).
test("the result plots grow with a wide window and fit a phone, with the zoom wrapper's steps", async ({ page }) => {
  const fieldBoxes = async () => {
    const display = page.getByTestId("result-display");
    await expect(display.locator('figure[data-plot="octopus.grayscale"] canvas')).toBeAttached();
    return display.locator("figure[data-plot]").evaluateAll((figures) =>
      figures.map((f) => {
        const box = f.getBoundingClientRect();
        const canvas = f.querySelector("canvas");
        return {
          plot: f.getAttribute("data-plot")!,
          width: box.width,
          height: box.height,
          right: box.right,
          top: box.top,
          // The canvas's CSS size: the stage is as large as the figure (its backing store adds the device pixel ratio).
          canvas: canvas ? canvas.getBoundingClientRect().width : null,
        };
      }),
    );
  };
  const fields = (boxes: Awaited<ReturnType<typeof fieldBoxes>>) => boxes.filter((b) => b.plot.startsWith("octopus."));

  await page.setViewportSize({ width: 1920, height: 1080 });
  await logIn(page, "manager");
  await page.getByRole("region", { name: "Recent tests" }).getByRole("link").first().click();
  const wide = await fieldBoxes();
  expect(fields(wide).length).toBeGreaterThanOrEqual(4);
  for (const b of fields(wide)) {
    expect(b.width, b.plot).toBeGreaterThan(240);
    expect(Math.abs(b.width - b.height), b.plot).toBeLessThanOrEqual(1);
    expect(b.canvas, b.plot).toBeCloseTo(b.width, 0);
  }
  // The Octopus-style row (greyscale, thresholds, values, comparison) side by side in the wide card.
  expect(
    new Set(
      fields(wide)
        .slice(0, 4)
        .map((b) => Math.round(b.top)),
    ).size,
  ).toBe(1);
  await screenshot(page, "result-1920");
  await page
    .getByTestId("result-display")
    .locator('figure[data-plot="octopus.thresholds"]')
    .screenshot({ path: "e2e/screenshots/result-1920-thresholds.png" });

  const zoom = page.getByRole("region", { name: "Plots", exact: true });
  await zoom.getByRole("button", { name: "Zoom in" }).click();
  await expect(zoom.getByTestId("zoom-reset")).toContainText("125%");
  const grayscale = (boxes: Awaited<ReturnType<typeof fieldBoxes>>) => boxes.find((b) => b.plot === "octopus.grayscale")!.width;
  expect(grayscale(await fieldBoxes())).toBeCloseTo(grayscale(wide) * 1.25, -1);
  await zoom.getByTestId("zoom-reset").click();
  await expect.poll(async () => grayscale(await fieldBoxes())).toBeCloseTo(grayscale(wide), 0);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(async () => grayscale(await fieldBoxes())).toBeLessThan(grayscale(wide));
  expect(grayscale(await fieldBoxes())).toBeGreaterThan(240);
  await screenshot(page, "result-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => Math.max(...fields(await fieldBoxes()).map((b) => b.right))).toBeLessThanOrEqual(390);
  for (const b of fields(await fieldBoxes())) expect(Math.abs(b.width - b.height), b.plot).toBeLessThanOrEqual(1);
  // Nothing on the page is wider than the phone but the gaze chart, which scrolls in its own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, "result-390");
});
