import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, pageApi, password } from "./support.ts";

// Accessibility on every route of both variants (issue 21 §8: "axe finds no serious or critical violation on any route
// of either variant"): the measurement clinic as its manager, the appointment clinic as its manager (who also reaches
// the users page), and the routes before login. Each page is checked once it has loaded (no skeleton, no spinner).

async function logInAs(page: Page, username: string) {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

async function loaded(page: Page, route: string) {
  await expect(page.getByRole("heading").first()).toBeVisible();
  // The design system shows its loading placeholders on purpose.
  if (route !== "/design-system") await expect(page.locator('[aria-busy="true"], .spinner-page')).toHaveCount(0);
}

/** A patient with a result in this organisation and the result's id (the measurement or the perimetry examination). */
async function patientWithResult(page: Page, variant: "measurements" | "appointments"): Promise<{ patientId: string; resultId: string }> {
  const search = await pageApi<{ entries: Array<{ id: string }> }>(page, "POST", "patient/search", {
    filter: { name: "", birthdate: null },
    page: 0,
    quantity: 50,
  });
  for (const p of search.entries) {
    const taken =
      variant === "measurements"
        ? (await pageApi<Array<{ id: string; result: unknown }>>(page, "GET", `perimetry/all?patientId=${p.id}`)).filter((m) => m.result)
        : await pageApi<Array<{ id: string }>>(page, "GET", `examination/all?patientId=${p.id}&examinationType=perimetry&taken=true`);
    if (taken.length > 0) return { patientId: p.id, resultId: taken[0]!.id };
  }
  throw new Error(`no patient with a result in the ${variant} clinic`);
}

const protectedRoutes = (patientId: string, resultId: string) => [
  "/home",
  `/patient/${patientId}/overview`,
  `/patient/${patientId}/perimetry/all`,
  `/patient/${patientId}/perimetry/${resultId}`,
  `/patient/${patientId}/amsler-grid`,
  "/technician",
  "/templates",
  "/support",
  "/users-manual/part-one",
  "/users-manual/part-two",
  "/bin/deleted-patients",
  "/bin/deleted-measurements",
  "/bin/deleted-appointments",
  "/settings",
  "/admin",
  "/design-system",
  "/no/such/page",
];

for (const variant of [
  { login: "manager", kind: "measurements" as const },
  { login: "appt.manager", kind: "appointments" as const },
]) {
  test(`${variant.kind} variant: every route has no serious or critical axe violation`, async ({ page }) => {
    test.setTimeout(120_000);
    await logInAs(page, variant.login);
    const { patientId, resultId } = await patientWithResult(page, variant.kind);
    for (const route of protectedRoutes(patientId, resultId)) {
      await test.step(route, async () => {
        await page.goto(route);
        await loaded(page, route);
        await expectAccessible(page);
      });
    }
  });
}

test("the routes before login have no serious or critical axe violation", async ({ page }) => {
  for (const route of ["/login", "/password-reset", "/password-reset/expired-or-unknown-token", "/signup/unknown/unknown"]) {
    await test.step(route, async () => {
      await page.goto(route);
      await loaded(page, route);
      await expectAccessible(page);
    });
  }
});
