import { expect, test } from "@playwright/test";
import { expectAccessible, logIn, password, screenshot } from "./support.ts";

test("search patients with the birthdate filter", async ({ page }) => {
  await logIn(page, "user");
  const results = page.getByRole("list", { name: "Search results" });
  await expect(results.getByRole("link").first()).toBeVisible();
  const first = (await results.getByRole("link").first().innerText()).split("\n")[0]!;
  // Name search is debounced: type, then the list narrows to the match.
  await page.getByRole("searchbox", { name: "Search patients by name or ID" }).fill(first.slice(0, 5));
  await expect(results.getByRole("link", { name: new RegExp(first) })).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();

  // The filter applies only when day, month and year are all chosen.
  const patients = await page.request.post("/api/patient/search", {
    headers: { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem("accessToken"))}` },
    data: { filter: { name: "", birthdate: null }, page: 0, quantity: 1 },
  });
  const target = (await patients.json()).data.entries[0] as { name: string; birthdate: string };
  const [year, month, day] = target.birthdate.split("-");
  const sameBirthdate = await page.request.post("/api/patient/search", {
    headers: { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem("accessToken"))}` },
    data: { filter: { name: "", birthdate: target.birthdate }, page: 0, quantity: 50 },
  });
  const expected = (await sameBirthdate.json()).data.entries.length as number;
  await page.getByRole("combobox", { name: "Day" }).selectOption(day!);
  await page.getByRole("combobox", { name: "Month" }).selectOption(month!);
  await expect(results.getByRole("link").nth(1)).toBeVisible(); // not yet applied: the list is unfiltered
  await page.getByRole("combobox", { name: "Year" }).selectOption(year!);
  await expect(results.getByRole("link")).toHaveCount(expected);
  await expect(results.getByRole("link", { name: new RegExp(target.name) })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "home-birthdate-filter");
});

test("create, edit, trash, restore and delete a patient", async ({ page }) => {
  const name = `Eva Probe ${Date.now() % 100000}`;
  const renamed = `${name} Edited`;
  await logIn(page, "user");

  await page.getByRole("button", { name: "Create patient" }).click();
  const form = page.getByRole("dialog", { name: "Create patient" });
  await form.getByLabel(/^Name/).fill(`  ${name} `);
  await form.getByLabel(/^Patient ID/).fill(`E2E-${Date.now() % 1000000}`);
  await form.getByLabel(/^Birthdate/).fill("1961-07-15");
  await form.getByLabel(/^Gender/).selectOption({ label: "Female" });
  await form.getByLabel(/^Patient language/).selectOption({ label: "Dutch" });
  await expectAccessible(page);
  await screenshot(page, "patient-form");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("alert")).toContainText("Click Save again to confirm.");
  await form.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page).toHaveURL(/\/patient\/[^/]+\/perimetry\/all$/);

  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit patient" });
  await edit.getByLabel(/^Name/).fill(renamed);
  await edit.getByRole("button", { name: "Save" }).click();
  await edit.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();
  await page.getByRole("link", { name: "Overview" }).click();
  await expectAccessible(page);
  await screenshot(page, "patient-profile");

  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog", { name: "Delete this patient?" }).getByRole("button", { name: "Move to the bin" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page
    .getByRole("status")
    .filter({ hasText: "The patient was moved to the bin." })
    .getByRole("button", { name: "Open the bin" })
    .click();
  await expect(page).toHaveURL(/\/bin\/deleted-patients$/);
  const row = page.getByRole("row", { name: new RegExp(renamed) });
  await expectAccessible(page);
  await screenshot(page, "bin");
  await row.getByRole("button", { name: "Restore" }).click();
  await page.getByRole("status").filter({ hasText: "The patient was restored." }).getByRole("button", { name: "Open" }).click();
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();

  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Move to the bin" }).click();
  await page.goto("/bin/deleted-patients");
  await page
    .getByRole("row", { name: new RegExp(renamed) })
    .getByRole("button", { name: "Delete for good" })
    .click();
  await page.getByRole("alertdialog", { name: "Delete this patient for good?" }).getByRole("button", { name: "Delete for good" }).click();
  await expect(page.getByRole("row", { name: new RegExp(renamed) })).toHaveCount(0);
});

test("perimetry list grouped by date with the notes dialog (256 characters, counter warns within 10)", async ({ page }) => {
  await logIn(page, "user");
  // A patient with a queued measurement: the first scheduled test on home.
  const scheduled = page.getByRole("region", { name: "Scheduled tests" }).getByRole("link").first();
  const name = (await scheduled.innerText()).split("\n")[0]!;
  await page.getByRole("searchbox", { name: "Search patients by name or ID" }).fill(name);
  await page
    .getByRole("list", { name: "Search results" })
    .getByRole("link", { name: new RegExp(name) })
    .click();
  await expect(page.getByRole("heading", { name: "Perimetry tests" })).toBeVisible();
  await page.getByRole("button", { name: "Notes" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Notes" });
  const text = dialog.getByLabel("Notes on this measurement");
  await text.fill("x".repeat(300));
  await expect(dialog.getByText("256 of 256 characters")).toBeVisible();
  await text.fill("Patient tired, repeat next visit.");
  await expect(dialog.getByText("33 of 256 characters")).toBeVisible();
  await dialog.getByRole("button", { name: "Save notes" }).click();
  await expect(dialog.getByRole("status")).toContainText("The notes were saved.");
  await expectAccessible(page);
  await screenshot(page, "perimetry-notes");
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(page.getByText("Has notes").first()).toBeVisible();
});

// Home's lists name each test's eye (issue 21: a patient's two eyes were two identical rows), and the Amsler page lists
// results, not a queued Amsler examination ("Scheduled examination: result is null", accounts seed §4). The second demo
// organisation (appointment variant) queues Hannah Keller's appointment with a right-eye Amsler test and has her
// two-eye perimetry appointment done (simulator/server/demo/appointment-clinic.ts).
test("home names each test's eye; the Amsler page shows no queued examination as a result", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill("appt.user");
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
  const eye = /^.+ · (Right eye|Left eye|Both eyes|Binocular)$/;
  for (const list of ["Recent tests", "Scheduled tests"]) {
    const tests = page.getByRole("region", { name: list }).getByTestId("home-test");
    await expect(tests.first()).toBeVisible();
    for (const text of await tests.allInnerTexts()) expect(text, list).toMatch(eye);
  }
  const done = page.getByRole("region", { name: "Recent tests" }).getByRole("link", { name: /Hannah Keller/ });
  await expect(done.getByTestId("home-test")).toHaveText(["Perimetry · Right eye", "Perimetry · Left eye"]);
  const queued = page.getByRole("region", { name: "Scheduled tests" }).getByRole("link", { name: /Hannah Keller/ });
  await expect(queued.getByTestId("home-test").filter({ hasText: "Amsler grid" })).toHaveText(["Amsler grid · Right eye"]);
  await screenshot(page, "home-appointments");

  await page.getByRole("searchbox", { name: "Search patients by name or ID" }).fill("Hannah Keller");
  await page
    .getByRole("list", { name: "Search results" })
    .getByRole("link", { name: /Hannah Keller/ })
    .click();
  await page.getByRole("link", { name: "Amsler grid" }).click();
  await expect(page).toHaveURL(/\/amsler-grid$/);
  await expect(page.getByText("No Amsler grid tests yet")).toBeVisible();
  await expect(page.getByText("without result")).toHaveCount(0);
  await expectAccessible(page);
});
