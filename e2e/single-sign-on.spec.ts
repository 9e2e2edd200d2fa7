import { expect, test } from "@playwright/test";
import { startTestProvider, type TestProvider } from "../tests/support/oidc-provider.ts";
import { apiToken, expectAccessible, logIn, screenshot } from "./support.ts";

// Issue 33 item 1: a manager sets the organisation's identity provider on the users page; a member of staff opens the
// organisation's login link, signs in through the provider (a real OpenID provider, oidc-provider, started here on
// 127.0.0.1) and logs out through it too. The demo organisation's settings are restored in the end (single sign-on
// off, the account the sign-in created deleted), so no other journey sees them.

const SLUG = "e2e-hospital";
let provider: TestProvider;

test.beforeAll(async () => {
  provider = await startTestProvider();
  provider.people.set("nora", { email: "nora.sso@hospital.example", groups: ["isopter-staff"] });
});
test.afterAll(async () => {
  await provider?.stop();
});

test("sign in through the organisation's identity provider, and out again", async ({ page, request, baseURL }) => {
  provider.allowRedirects(`${baseURL}/login/sso/callback`, `${baseURL}/login/${SLUG}`);
  try {
    await logIn(page, "manager");
    await page.goto("/admin");
    const section = page.getByTestId("single-sign-on-settings");
    await section.getByRole("button", { name: "Set up single sign-on" }).click();
    await section.getByLabel(/^Login link name/).fill(SLUG);
    await section.getByLabel(/^Provider name on the login page/).fill("Hospital Login");
    await section.getByLabel(/^Issuer URL/).fill(provider.issuer);
    await section.getByLabel(/^Client ID/).fill(provider.clientId);
    await section.getByLabel(/^Client secret/).fill(provider.clientSecret);
    await section.getByLabel(/^Values for users/).fill("isopter-staff");
    await section.getByRole("button", { name: "Save single sign-on" }).click();
    await expect(section.getByRole("status")).toHaveText("Single sign-on saved.");
    await expect(section.getByLabel(/^Client secret \(stored/)).toHaveValue("");
    await expect(section).toContainText(`${baseURL}/login/sso/callback`);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();

    await page.goto(`/login/${SLUG}`);
    const signIn = page.getByRole("button", { name: "Sign in with Hospital Login" });
    await expect(signIn).toBeVisible();
    // The password form stays beside it (passwords are on for this organisation).
    await expect(page.getByRole("textbox", { name: "Password", exact: true })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, "login-single-sign-on");
    await signIn.click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    await page.getByLabel("Staff account").fill("nora");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();

    // Logout ends the provider's session too: its end-session page, then back to the organisation's login link.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(new RegExp(`/login/${SLUG}$`), { timeout: 10_000 });
    await expect(page.getByRole("button", { name: "Sign in with Hospital Login" })).toBeVisible();
  } finally {
    const manager = await apiToken(request, "manager");
    const auth = { authorization: `Bearer ${manager}` };
    await request.delete("/api/sso/settings", { headers: auth });
    const users = (await (await request.get("/api/user/all", { headers: auth })).json()).data as Array<{ id: string; email: string }>;
    const created = users.find((u) => u.email === "nora.sso@hospital.example");
    if (created) await request.delete(`/api/user/delete?id=${created.id}`, { headers: auth });
  }
});
