import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, password, screenshot } from "./support.ts";

// The Support page "How reliable is progression analysis" (issue 30 §4): reached from the help centre's topic, it shows
// the table npm run bench:progression measured (web/pages/support/progression-accuracy.json), the simulated groups,
// how to run it again and each method's paper, in the interface language.

const measured = JSON.parse(readFileSync(new URL("../web/pages/support/progression-accuracy.json", import.meta.url), "utf8")) as {
  measuredOn: string;
  methods: string[];
  cohorts: { id: string; kind: string }[];
  specificity: Record<string, Record<string, { visits5: { worsening: number }; visits10: { worsening: number } }>>;
  sensitivity: Record<string, Record<string, { years5: { worsening: number } }>>;
};

async function logIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill("user");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

test("how reliable is progression analysis: the measured table from the help centre, in the interface language", async ({ page }) => {
  await logIn(page);
  await page.goto("/support");
  await page.getByText("How reliable is progression analysis?").click();
  await page.getByRole("link", { name: "How reliable is progression analysis" }).click();
  await expect(page).toHaveURL(/\/support\/progression-accuracy$/);
  await expect(page.getByRole("heading", { level: 1, name: "How reliable is progression analysis" })).toBeVisible();
  await expect(page.getByTestId("accuracy-measured")).toContainText(measured.measuredOn);

  // Specificity: a row per method, a cell per stable group (after 5 · 10 visits), as the bench measured them.
  const specificity = page.getByTestId("accuracy-specificity");
  const stable = measured.cohorts.filter((c) => c.kind === "stable");
  await expect(specificity.locator("tbody tr")).toHaveCount(measured.methods.length);
  const poplr = specificity.locator('tr[data-method="poplr"] td');
  await expect(poplr).toHaveCount(stable.length);
  const stablePoplr = measured.specificity.stable!.poplr!;
  const pct = (share: number) => `${Math.round(share * 100)} %`;
  await expect(poplr.first()).toContainText(`${pct(1 - stablePoplr.visits5.worsening)} · ${pct(1 - stablePoplr.visits10.worsening)}`);

  // Sensitivity: diffuse and localised tables, a column per progressing group, 2 · 3 · 5 years and the median.
  const sensitivity = page.getByTestId("accuracy-sensitivity");
  await expect(sensitivity).toHaveCount(2);
  const diffuse = measured.cohorts.filter((c) => c.kind === "diffuse");
  const events = sensitivity.first().locator('tr[data-method="events"] td');
  await expect(events).toHaveCount(diffuse.length);
  await expect(events.first()).toContainText(`${Math.round(measured.sensitivity[diffuse[0]!.id]!.events!.years5.worsening * 100)} %`);
  await expect(events.first()).toContainText(/median/);

  // The groups' parameters, the observer's calibration, the command and the papers.
  await expect(page.getByTestId("accuracy-cohorts").locator("tbody tr")).toHaveCount(measured.cohorts.length);
  await expect(page.getByTestId("accuracy-observer")).toContainText("1.54–1.74");
  await expect(page.getByText("npm run bench:progression", { exact: true })).toBeVisible();
  await expect(page.getByText("O'Leary N, Chauhan BC, Artes PH. Invest Ophthalmol Vis Sci 2012;53:6776-6784")).toBeVisible();
  await expect(page.getByText("Gardiner SK, Crabb DP. Invest Ophthalmol Vis Sci 2002;43:1400-1407")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "progression-accuracy");

  // A narrow screen: the tables scroll inside their boxes, the page does not.
  await page.setViewportSize({ width: 420, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // In German.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => localStorage.setItem("language", "de"));
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Wie zuverlässig ist die Progressionsanalyse" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Stabile Augen: Spezifität" })).toBeVisible();
  await screenshot(page, "progression-accuracy-de");
  await page.evaluate(() => localStorage.setItem("language", "en"));
});
