import { expect, test } from "@playwright/test";
import { apiToken, expectAccessible, logIn, password, screenshot } from "./support.ts";

test("log in and out, with the logout confirmation", async ({ page }) => {
  await logIn(page, "user");
  await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Log out?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Protected pages need a token again.
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login$/);
});

test("a page asked for before the login opens after it (issue 21's deep link)", async ({ page }) => {
  await page.goto("/settings?tab=1");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel(/^Username/).fill("user");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=1$/);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
});

test("a wrong password says 'Login failed.' and editing clears it", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill("  manager ");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert")).toContainText("Login failed.");
  await expectAccessible(page);
  await screenshot(page, "login-failed");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await expect(page.getByText("Login failed.")).toHaveCount(0);
  // The username was typed with spaces: it is trimmed before sending.
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test("the chosen language persists after a reload", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("combobox", { name: "Language" }).selectOption("de");
  await expect(page.getByRole("heading", { name: "Anmelden" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Anmelden" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await screenshot(page, "login-de");
  await page.getByLabel(/^Benutzername/).fill("user");
  await page.getByRole("textbox", { name: "Passwort", exact: true }).fill(password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByRole("heading", { name: "Startseite" })).toBeVisible();
  await page.getByRole("link", { name: "Einstellungen" }).click();
  await page.getByRole("combobox", { name: "Sprache" }).selectOption("en");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
});

test("an invalid session token shows the session-expired dialog, then the login banner", async ({ page }) => {
  await logIn(page, "user");
  // Let the home page's calls finish first: their answers carry a refreshed token that would replace ours.
  await expect(page.getByRole("list", { name: "Search results" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => sessionStorage.setItem("accessToken", "x.eyJyb2xlIjoidXNlciJ9.y"));
  await page.getByRole("link", { name: "Bin" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Session expired" });
  await expect(dialog).toContainText("Your session has expired, please log in again.");
  await dialog.getByRole("button", { name: "Go to login" }).click();
  await expect(page.getByText("Your session has expired, please log in again.")).toBeVisible();
  await screenshot(page, "login-session-expired");
});

test("password reset through the outbox; a used or broken link says so as the page opens", async ({ page, request }) => {
  test.setTimeout(60_000); // two logins, a reset and four visits of the reset page on a loaded machine
  const userToken = await apiToken(request, "user");
  const email = JSON.parse(Buffer.from(userToken.split(".")[1]!, "base64url").toString()).email as string;
  // "Missing token: a message says so" (accounts seed §2): a link cut after /password-reset/, with the request form below.
  await page.goto("/password-reset/");
  await expect(page.getByTestId("reset-token-missing")).toContainText("The reset link has no token.");
  await expect(page.getByRole("button", { name: "Send reset link" })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^Repeat the e-mail/).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("reset link is on its way");
  await expectAccessible(page);

  const adminToken = await apiToken(request, "admin");
  const outbox = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const link = (await outbox.json()).data[0].link as string;
  await page.goto(new URL(link).pathname);
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Repeat the new password/).fill(password);
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password has been changed.");
  await expect(page).toHaveURL(/\/login$/, { timeout: 6000 });
  await logIn(page, "user");

  // The same link again: used, said at once, before anything is typed (issue 21), with the way to a new one.
  await page.goto(new URL(link).pathname);
  const refused = page.getByTestId("reset-link-refused");
  await expect(refused).toContainText("This reset link has expired or has been used already. Request a new one.");
  await expect(page.getByLabel(/^New password/)).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, "reset-link-used");
  await refused.getByRole("link", { name: "Request a new link" }).click();
  await expect(page).toHaveURL(/\/password-reset$/);
  // A link whose token is not ours (a character changed in the signature): not valid, at once.
  const [header, payload] = new URL(link).pathname.split("/password-reset/")[1]!.split(".");
  await page.goto(`/password-reset/${header}.${payload}.not-the-signature`);
  await expect(page.getByTestId("reset-link-refused")).toContainText("This reset link is not valid.");
  await expect(page.getByLabel(/^New password/)).toHaveCount(0);
});

test("a login of the same user elsewhere shows the another-session dialog", async ({ page, request }) => {
  await logIn(page, "user");
  await expect(page.getByRole("list", { name: "Search results" })).toBeVisible();
  await page.waitForTimeout(500); // the live socket says hello with this session's token
  await apiToken(request, "user");
  const dialog = page.getByRole("alertdialog", { name: "Another session was opened" });
  await expect(dialog).toContainText("different web client");
  await expectAccessible(page);
  await screenshot(page, "another-session");
  await dialog.getByRole("button", { name: "Go to login" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("sign-up by invitation, then log in with the new account", async ({ page, request }) => {
  const email = `newcomer${Date.now() % 100000}@clinic.example`;
  const manager = await apiToken(request, "manager");
  const invite = await request.post("/api/user/invite", {
    headers: { authorization: `Bearer ${manager}` },
    data: { emails: [email], role: "user" },
  });
  expect(invite.ok()).toBe(true);
  const admin = await apiToken(request, "admin");
  const outbox = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${admin}` } });
  const link = (await outbox.json()).data[0].link as string;

  await page.goto(new URL(link).pathname);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByLabel(/^New password/).fill("Newcomer-2!");
  await page.getByLabel(/^Repeat the new password/).fill("Newcomer-2!");
  await expectAccessible(page);
  await screenshot(page, "signup");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText("Your account is ready.");
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
  await page.getByLabel(/^Username/).fill(email);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill("Newcomer-2!");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
});
