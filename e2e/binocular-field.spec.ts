import { expect, test, type Page } from "@playwright/test";
import { logIn, pageApi } from "./support.ts";

// Issue 30: the binocular integrated visual field. A demo patient whose eyes were tested the same day on 24-2 (James
// Wilson, advanced glaucoma; the demo seed tests both eyes at each visit): under the shown result, the right eye, the
// left eye and the integrated field with the disability score; the print carries the field and its score.
// Screenshots: e2e/screenshots/binocular-field.png, print-binocular.png.

interface Stored {
  id: string;
  result: { pattern: number; eye: number; takenAt: string } | null;
}
const P24_2 = 1;
const Right = 0;

async function openLatestRight24(page: Page, patientName: string) {
  const patients = await pageApi<Array<{ id: string; name: string }>>(page, "GET", "patient/all");
  const patient = patients.find((p) => p.name === patientName)!;
  const list = await pageApi<Stored[]>(page, "GET", `perimetry/all?patientId=${patient.id}`);
  const latest = list
    .filter((m) => m.result?.pattern === P24_2 && m.result.eye === Right)
    .sort((a, b) => b.result!.takenAt.localeCompare(a.result!.takenAt))[0];
  expect(latest, `${patientName}: a right-eye 24-2 result`).toBeDefined();
  await page.goto(`/patient/${patient.id}/perimetry/${latest!.id}`);
  await expect(page.getByTestId("result-display")).toBeVisible();
}

test("a visit with both eyes on 24-2 shows the integrated field beside the two eyes, with its disability score, and prints it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await logIn(page, "manager");
  await openLatestRight24(page, "James Wilson");

  const section = page.getByTestId("binocular-field");
  await expect(section.getByRole("heading", { name: "Binocular integrated field" })).toBeVisible();
  await expect(section.getByTestId("binocular-score")).toHaveText(
    /^Disability score: \d+ of 104 · points below 10 dB: \d+; below 20 dB: \d+$/,
  );
  // Advanced loss in both eyes leaves points below 20 dB even with both eyes open.
  const score = Number((await section.getByTestId("binocular-score").textContent())!.match(/score: (\d+)/)![1]);
  expect(score).toBeGreaterThan(0);
  for (const name of ["Right eye (dB)", "Left eye (dB)", "Integrated field, both eyes (dB)"])
    await expect(section.getByRole("img", { name })).toBeVisible();
  await expect(section.locator('figure[data-plot="binocular.integrated"] canvas')).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: "e2e/screenshots/binocular-field.png" });

  // The print: the integrated field in a cell of the plot grid, with the same score.
  await page.evaluate(() => {
    (window as unknown as { print: () => void }).print = () => document.body.setAttribute("data-printed", "1");
  });
  await page.getByTestId("result-display").getByTestId("print-button").click();
  await expect(page.locator("body[data-printed='1']")).toBeAttached({ timeout: 5_000 });
  const printed = page.locator('[data-testid="print-plots"] g[data-role="binocular.integrated"]');
  await expect(printed).toBeAttached();
  await expect(printed).toContainText(`Disability score ${score} of 104`);
  await page.emulateMedia({ media: "print" });
  await page.locator('[data-testid="print-page"]').screenshot({ path: "e2e/screenshots/print-binocular.png" });
});
