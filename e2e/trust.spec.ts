import { expect, test } from "@playwright/test";
import { apiToken, cspViolations, logIn, screenshot } from "./support.ts";

// Issue 15 §4 in the real browser: the app runs under its strict Content-Security-Policy (no inline script, styles
// only from its own files) without a single violation: Konva draws the plots, Lingui switches the language, the
// technician view and the manual frame load.

test("the app works under its Content-Security-Policy: plots, languages, technician view and manual, no violation", async ({ page }) => {
  const seen = cspViolations(page);
  const response = await page.goto("/login");
  expect(response!.headers()["content-security-policy"]).toContain("script-src 'self'");
  await logIn(page, "manager");
  await page.getByRole("region", { name: "Recent tests" }).getByRole("link").first().click();
  const results = page.getByTestId("perimetry-results");
  await expect(results.getByRole("img", { name: "Greyscale" }).first()).toBeVisible();
  await expect(results.locator("figure canvas").first()).toBeVisible();
  // Konva really drew: the canvas has coloured pixels.
  const inked = await results
    .locator("figure canvas")
    .first()
    .evaluate((c: HTMLCanvasElement) => {
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
  // The embedded manual is a PDF (Chromium's viewer draws it; its frames are not the page's DOM).
  await expect(page.locator("iframe").first()).toHaveAttribute("src", /^\/manuals\/[a-z-]+\/part-1\.pdf$/);
  // Lingui: the settings switch the interface to German and back.
  await page.goto("/settings");
  await page.getByRole("combobox", { name: "Language" }).selectOption("de");
  await expect(page.getByRole("heading", { name: "Einstellungen" })).toBeVisible();
  await page.getByRole("combobox", { name: "Sprache" }).selectOption("en");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  expect(seen).toEqual([]);
});

test("a manager reads the audit trail on the users page: who read which patient, filtered by action and user, in pages", async ({
  page,
  request,
}) => {
  // The user reads a patient through the API (their own session), then the manager looks.
  const token = await apiToken(request, "user");
  const patients = (await (await request.get("/api/patient/all", { headers: { authorization: `Bearer ${token}` } })).json()).data as Array<{
    id: string;
  }>;
  // An id far too long for the trail first: it is kept, cut, and the entry says so (issue 33 §6).
  await request.get(`/api/patient?id=${"9".repeat(5000)}`, { headers: { authorization: `Bearer ${token}` } });
  await request.get(`/api/patient?id=${patients[0]!.id}`, { headers: { authorization: `Bearer ${token}` } });
  await logIn(page, "manager");
  await page.goto("/admin");
  const audit = page.getByRole("region", { name: "Audit trail" });
  await expect(audit.getByTestId("audit-table")).toBeVisible();
  await audit.getByRole("textbox", { name: "Action" }).fill("patient.get");
  await audit.getByRole("combobox", { name: "User", exact: true }).selectOption({ label: "user" });
  const rows = audit.getByTestId("audit-table").locator("tbody tr");
  await expect(rows.first()).toContainText("patient.get");
  await expect(rows.first()).toContainText(`Patient ${patients[0]!.id}`);
  await expect(rows.first()).toContainText("127.0.0.1");
  await expect(rows.first()).toContainText("Done");
  await expect(rows.nth(1).getByTestId("audit-note")).toContainText(/^Note: .*cut to 256 characters/);
  await audit.getByRole("textbox", { name: "Action" }).fill("");
  await audit.getByRole("combobox", { name: "User", exact: true }).selectOption({ label: "All users" });
  await expect(audit.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await audit.getByRole("button", { name: "Older" }).click();
  await expect(audit.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await screenshot(page, "audit-trail");
});
