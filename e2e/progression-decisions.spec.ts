import { expect, test } from "@playwright/test";
import { cspViolations, logIn, pageApi, reportedViolations, screenshot } from "./support.ts";

// Issue 30, as a new user would try it: the demo patient Felix Wagner's left eye. The result page shows the field's
// glaucoma stages (Hodapp-Parrish-Anderson with each criterion, GSS 2, AGIS, CIGTS); the progression view under the
// chart lists every published criterion with its verdict in vfprogression's words and one reading per eye, instead of
// "Events (GPA): No progression" beside a falling VFI trend with nothing to reconcile them.
// Screenshots (README): e2e/screenshots/decisions-stages.png, decisions-progression.png.

interface Stored {
  id: string;
  result: { pattern: number; eye: number; takenAt: string } | null;
}
const Left = 1;

test("Felix Wagner's left eye: stages on the result, every criterion's verdict and one reading per eye", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  // PoPLR's sieve is WebAssembly: the page compiles it under the app's CSP without a violation.
  const refused = cspViolations(page);
  await logIn(page, "user");
  const patients = await pageApi<Array<{ id: string; name: string }>>(page, "GET", "patient/all");
  const felix = patients.find((p) => p.name === "Felix Wagner")!;
  const list = await pageApi<Stored[]>(page, "GET", `perimetry/all?patientId=${felix.id}`);
  const latest = list.filter((m) => m.result?.eye === Left).sort((a, b) => b.result!.takenAt.localeCompare(a.result!.takenAt))[0]!;
  await page.goto(`/patient/${felix.id}/perimetry/${latest.id}`);
  await expect(page.getByTestId("result-display")).toBeVisible();

  // The stages of the field.
  const stages = page.getByTestId("stages");
  await expect(stages).toBeVisible();
  await expect(page.getByTestId("stages-summary")).toContainText(/Hodapp/);
  await expect(page.getByTestId("stages-summary")).toContainText(/GSS 2/);
  await expect(page.getByTestId("stages-summary")).toContainText(/AGIS/);
  await expect(page.getByTestId("stages-summary")).toContainText(/CIGTS/);
  await stages.scrollIntoViewIfNeeded();
  await stages.screenshot({ path: "e2e/screenshots/decisions-stages.png" });

  // The progression view: the left eye's nine criteria and its reading.
  const eye = page.getByTestId("progression-analysis").locator("section[data-eye='1']");
  await expect(eye).toBeVisible();
  const rows = eye.locator("[data-fact=criteria] tbody tr");
  await expect(rows).toHaveCount(9);
  for (const verdict of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-verdict"))))
    expect(["worsening", "stable", "improving", "not-applicable"]).toContain(verdict);
  await expect(eye.locator("[data-fact=reading]")).toContainText(/(worsening|stable|improving) by \d of \d methods|no majority|no reading/);
  await page.getByTestId("progression-analysis").scrollIntoViewIfNeeded();
  await page.getByTestId("progression-analysis").screenshot({ path: "e2e/screenshots/decisions-progression.png" });
  await screenshot(page, "decisions-result-page");
  expect(refused).toEqual([]);
  expect(await reportedViolations(page)).toEqual([]);
});
