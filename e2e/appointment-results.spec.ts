import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, password, screenshot } from "./support.ts";

// The appointment variant's result page: the second demo organisation (appt.user, organisation multi-tests on) has a
// done appointment whose two perimetry examinations were taken with results (simulator/server/demo/appointment-clinic.ts).
// Home's recent tests open /patient/{id}/perimetry/{examinationId}?scrollToMeasurement=1, which shows the examination's
// result with its indices and plots like a measurement's; its notes are saved on the examination.

async function logInAs(page: Page, username: string) {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

test("a taken perimetry examination opens from home's recent tests with its indices, plots and notes", async ({ page }) => {
  await logInAs(page, "appt.user");
  await page.getByRole("region", { name: "Recent tests" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/patient\/[^/]+\/perimetry\/[^/?]+\?scrollToMeasurement=1$/);
  const examinationId = new URL(page.url()).pathname.split("/").at(-1)!;

  const results = page.getByTestId("perimetry-results");
  const display = results.getByTestId("result-display");
  await expect(display).toBeVisible();
  await expect(display).toHaveAttribute("id", `result-${examinationId}`);
  await expect(display.getByRole("heading", { level: 3 })).toContainText("24-2");
  for (const index of ["MS", "MD", "sLV", "PSD", "VFI", "GHT"])
    await expect(display.getByText(index, { exact: true }).first()).toBeVisible();
  // Each plot is a figure named by its title, drawn on a canvas once Konva has loaded.
  for (const name of ["Greyscale", "Thresholds (dB)", "Total deviation probability", "Pattern deviation probability", "Gaze tracking"]) {
    await expect(display.getByRole("img", { name }).first()).toBeVisible();
  }
  await expect(display.locator("figure canvas").first()).toBeVisible();
  // The list marks the examination with the same mean defect the indices print; both eyes are in the chart.
  const md = (await display.locator('tr[data-index="md"] td.num').first().textContent())!;
  const item = page.locator(`li#measurement-${examinationId}`);
  await expect(item).toHaveAttribute("aria-current", "true");
  await expect(item).toContainText(`MD ${md} dB`);
  await expect(page.locator("li[id^='measurement-']")).toHaveCount(2);
  await expect(results.getByTestId("progression").locator(".slopes li")).toHaveCount(2);
  await screenshot(page, "appointment-result");
  await expectAccessible(page);

  // Notes go to the examination (PATCH examination/update) and come back with the list.
  await item.getByRole("button", { name: "Notes" }).click();
  const dialog = page.getByRole("dialog", { name: "Notes" });
  await dialog.getByRole("textbox").fill("Read in the appointment variant.");
  await dialog.getByRole("button", { name: "Save notes" }).click();
  await expect(dialog.getByText("The notes were saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).last().click();
  await expect(item.getByText("Has notes")).toHaveAttribute("title", "Read in the appointment variant.");
  await page.reload();
  await expect(page.locator(`li#measurement-${examinationId}`).getByText("Has notes")).toBeVisible();
});
