import { expect, test } from "@playwright/test";
import { apiToken, expectAccessible, logIn, screenshot } from "./support.ts";

test("users page: managers invite, the user role cannot reach it", async ({ page, request }) => {
  // Read the manager's e-mail before the browser logs in: a second login of the same user ends the first session.
  const managerEmail = JSON.parse(Buffer.from((await apiToken(request, "manager")).split(".")[1]!, "base64url").toString()).email as string;
  await logIn(page, "user");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.goto("/admin");
  await expect(page.getByRole("alert")).toContainText("Only managers can manage users.");
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();

  await logIn(page, "manager");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("table").first()).toBeVisible(); // the accounts (headsets and the audit trail follow)
  const fresh = `invitee${Date.now() % 100000}@clinic.example`;
  await page.getByLabel(/^E-mail addresses/).fill(`${fresh}, ${managerEmail}`);
  await page.getByRole("button", { name: "Send invitations" }).click();
  // The manager is already registered: the warning names them and the other invitation goes out.
  await expect(page.getByRole("alert").filter({ hasText: "already invited or registered" })).toContainText(managerEmail);
  await expect(page.getByRole("cell", { name: fresh, exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "users");

  await page.getByRole("combobox", { name: `Role of ${fresh}` }).selectOption("manager");
  await expect(page.getByRole("status").filter({ hasText: `The role of ${fresh} is now Manager.` })).toBeVisible();

  await page.getByRole("button", { name: `Delete ${fresh}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete ${fresh}?` });
  await expect(confirm).toContainText("revokes their access to all tests and results");
  await confirm.getByRole("button", { name: "Delete user" }).click();
  await expect(page.getByRole("cell", { name: fresh, exact: true })).toHaveCount(0);
});

test("main pages render, are accessible and are captured", async ({ page }) => {
  await logIn(page, "manager");
  await expect(page.getByRole("list", { name: "Search results" })).toBeVisible();
  // Scheduled tests link to their device lane: /technician?scrollTo={deviceSn}/{id} (accounts seed §2).
  await expect(page.getByRole("region", { name: "Scheduled tests" }).getByRole("link").first()).toHaveAttribute(
    "href",
    /^\/technician\?scrollTo=[^/]+\/.+/,
  );
  await expectAccessible(page);
  await screenshot(page, "home");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page).toHaveTitle("Settings · Isopter");
  await expect(page.getByText("manager", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "settings");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Support" }).click();
  await page.getByRole("button", { name: "Device" }).click();
  await page.getByText("What do the battery LED colours mean?").click();
  await expect(page.getByText(/Flashing red: below 20 %/)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "support");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "User manual" }).click();
  await expect(page).toHaveURL(/\/users-manual\/part-one$/);
  // The manual is an embedded PDF (help.spec.ts reads the documents themselves).
  await expect(page.locator("iframe")).toHaveAttribute("src", /\/part-1\.pdf$/);
  await page.getByRole("link", { name: "Part 2" }).click();
  await expect(page.locator("iframe")).toHaveAttribute("src", /\/part-2\.pdf$/);
  await expectAccessible(page);
  await screenshot(page, "manual");

  await page.goto("/design-system");
  await expect(page.getByRole("heading", { name: "Design system" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "design-system");
  await page.getByRole("button", { name: "Open a modal with a close button" }).click();
  await expect(page.getByRole("dialog", { name: "Example modal" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Sorry, this page does not exist." })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "not-found");
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test("small screens get one column with the navigation on top", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, "user");
  await expect(page.getByRole("list", { name: "Search results" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "home-small");
});

test("the no-internet page shows after 2 s offline and leaves as soon as the network is back", async ({ page, context }) => {
  await logIn(page, "user");
  await expect(page.getByRole("list", { name: "Search results" })).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByRole("heading", { name: "No internet connection" })).toBeVisible({ timeout: 5000 });
  await expectAccessible(page);
  await screenshot(page, "offline");
  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: "Home", exact: true })).toBeVisible();
});

test("the multi-tests setting switches home and bin to appointments", async ({ page, request }) => {
  const admin = await apiToken(request, "admin");
  const set = (multiTests: boolean) =>
    request.patch("/api/dev/organisation", { headers: { authorization: `Bearer ${admin}` }, data: { multiTests } });
  expect((await set(true)).ok()).toBe(true);
  try {
    await logIn(page, "manager");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Bin" }).click();
    await expect(page.getByRole("navigation", { name: "Bin sections" }).getByRole("link", { name: "Deleted appointments" })).toBeVisible();
    await page.getByRole("link", { name: "Deleted appointments" }).click();
    await expect(page).toHaveURL(/\/bin\/deleted-appointments$/);
    await expect(page.getByRole("heading", { name: "No deleted appointments" }).or(page.getByRole("table"))).toBeVisible();
    await expectAccessible(page);
  } finally {
    await set(false);
  }
});

test("patient search pages in as the list scrolls, and a wrong current password is refused in settings", async ({ page }) => {
  await logIn(page, "user");
  const results = page.getByRole("list", { name: "Search results" });
  await expect(results.getByRole("link")).toHaveCount(20);
  // "infinite scroll while remaining > 0": scrolling to the end loads the next page.
  await results.getByRole("button", { name: "Show more patients" }).scrollIntoViewIfNeeded();
  await expect(results.getByRole("link").nth(20)).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByLabel(/^Current password/).fill("Not-the-password-1!");
  await page.getByLabel(/^New password/).fill("Another-pass-2!");
  await page.getByLabel(/^Repeat the new password/).fill("Another-pass-2!");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The current password is not correct." })).toBeVisible();
  // The session survives a wrong old password.
  await expect(page).toHaveURL(/\/settings$/);
});
