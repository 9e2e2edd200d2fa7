import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./support.ts";

// Issue 15 §4 in the real browser: the app runs under its strict Content-Security-Policy (no inline script, styles
// only from its own files) without a single violation: Konva draws the plots, Lingui switches the language, the
// technician view and the manual frame load.

/** Every CSP violation the page reports (Chromium logs each as a console error starting "Refused to"). */
const violations = (page: Page) => {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  return seen;
};

test("the app works under its Content-Security-Policy: plots, languages, technician view and manual, no violation", async ({ page }) => {
  const seen = violations(page);
  const response = await page.goto("/login");
  expect(response!.headers()["content-security-policy"]).toContain("script-src 'self'");
  await logIn(page, "manager");
  await page.getByRole("region", { name: "Recent tests" }).getByRole("link").first().click();
  const results = page.getByTestId("perimetry-results");
  await expect(results.getByRole("img", { name: "Greyscale" }).first()).toBeVisible();
  await expect(results.locator("figure canvas").first()).toBeVisible();
  // Konva really drew: the canvas has coloured pixels.
  const inked = await results.locator("figure canvas").first().evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
  expect(inked).toBeGreaterThan(100);
  await page.goto("/technician");
  await expect(page.locator('[data-testid="lane"]').first()).toBeVisible();
  await page.goto("/users-manual/part-one");
  await expect(page.locator("iframe").first()).toBeVisible();
  await expect(page.frameLocator("iframe").first().locator("h1")).toBeVisible();
  // Lingui: the settings switch the interface to German and back.
  await page.goto("/settings");
  await page.getByRole("combobox", { name: "Language" }).selectOption("de");
  await expect(page.getByRole("heading", { name: "Einstellungen" })).toBeVisible();
  await page.getByRole("combobox", { name: "Sprache" }).selectOption("en");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  expect(seen).toEqual([]);
});
