import { expect, test, type Page } from "@playwright/test";
import { Languages } from "../core/model/enums.ts";
import { clippedCanvasText, clippedHtml, clippedPrintHeader, overlappingCanvasText, recordCanvasText } from "./clipping.ts";
import { laneOf, pageApi, password, screenshot, serverLanes } from "./support.ts";

// Every language readable (issue 21: "Technician cards cut their values off in seven languages"; "plot titles on the
// result page are cut on both sides"): in each of the ten interface languages the technician view (both variants),
// its dialogs and the result page's plots show every text whole. The check measures the real layout (clipping.ts).

async function logInAs(page: Page, username: string) {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

async function inLanguage(page: Page, language: string, path: string) {
  await page.evaluate((l) => localStorage.setItem("language", l), language);
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute(
    "lang",
    language === "chi" ? "zh-Hans" : language === "mexsp" ? "es-MX" : language === "bp" ? "pt-BR" : language,
  );
}

test.describe.configure({ timeout: 180_000 });

test("technician view, its cards and dialogs: nothing clipped in any of the ten languages", async ({ page }) => {
  await logInAs(page, "user");
  const lane = (await serverLanes(page)).find((l) => l.perimetries.length > 0)!;
  const problems: Record<string, unknown[]> = {};
  for (const language of Languages) {
    await inLanguage(page, language, "/technician");
    await expect(laneOf(page, lane.deviceSn).locator("[data-card-id]").first()).toBeVisible();
    await expect(page.getByTestId("patient-name").first()).not.toHaveText(/…/);
    const found = [...(await clippedHtml(page))];
    if (language === "de" || language === "bp") await screenshot(page, `technician-${language}`);
    // The bin confirmation and the measurement form.
    await laneOf(page, lane.deviceSn).locator(".mcard-actions button").last().click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    found.push(...(await clippedHtml(page, '[role="alertdialog"]')));
    await page.keyboard.press("Escape");
    await laneOf(page, lane.deviceSn).locator(".lane-tools .btn-primary").click();
    await expect(page.getByRole("dialog")).toBeVisible();
    found.push(...(await clippedHtml(page, '[role="dialog"]')));
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    // The move confirmation ("Delete and move actions need confirmation"): a keyboard move of the first card one place
    // on, then measured and cancelled (nothing moves).
    await laneOf(page, lane.deviceSn).locator("[data-card-id]").first().focus();
    await page.keyboard.press("Space");
    await expect(page.locator("[data-dragging=true]")).toHaveCount(1);
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(200);
    await page.keyboard.press("Space");
    await expect(page.getByRole("alertdialog")).toBeVisible();
    found.push(...(await clippedHtml(page, '[role="alertdialog"]')));
    await page.keyboard.press("Escape");
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    if (found.length > 0) problems[language] = found;
  }
  expect(problems).toEqual({});
});

test("appointment variant cards and side panel: nothing clipped in any of the ten languages", async ({ page }) => {
  await logInAs(page, "appt.user");
  const lane = (await serverLanes(page)).find((l) => (l.appointments ?? []).length > 0)!;
  const problems: Record<string, unknown[]> = {};
  for (const language of Languages) {
    await inLanguage(page, language, "/technician");
    await expect(laneOf(page, lane.deviceSn).locator(".acard").first()).toBeVisible();
    await laneOf(page, lane.deviceSn).locator(".acard").first().click();
    await expect(page.getByTestId("appointment-panel")).toBeVisible();
    const found = await clippedHtml(page, "main, [data-testid=appointment-panel]");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("appointment-panel")).toHaveCount(0);
    // The examination wizard: its first step, then patient creation with every field's "This field is required."
    await laneOf(page, lane.deviceSn).locator(".lane-tools .btn-primary").click();
    const wizard = page.getByRole("dialog");
    await expect(wizard).toBeVisible();
    found.push(...(await clippedHtml(page, '[role="dialog"]')));
    await wizard.locator(".wizard > section > button.btn").last().click();
    await wizard.locator(".wizard section .btn-primary").click();
    await expect(wizard.locator(".field-error")).toHaveCount(5);
    found.push(...(await clippedHtml(page, '[role="dialog"]')));
    await page.keyboard.press("Escape");
    await expect(wizard).toHaveCount(0);
    if (found.length > 0) problems[language] = found;
  }
  expect(problems).toEqual({});
});

test("result page plots, its bin confirmation and its printout's header: nothing cut off in any of the ten languages", async ({ page }) => {
  await recordCanvasText(page);
  // The print button prints after 2 s; the journey measures the layout instead of opening the print dialog.
  await page.addInitScript(() => {
    window.print = () => {};
  });
  await logInAs(page, "user");
  const patients = await pageApi<{ entries: Array<{ id: string }> }>(page, "POST", "patient/search", {
    filter: { name: "", birthdate: null },
    page: 0,
    quantity: 50,
  });
  let target: { patientId: string; id: string } | undefined;
  for (const p of patients.entries) {
    const taken = (await pageApi<Array<{ id: string; result: unknown }>>(page, "GET", `perimetry/all?patientId=${p.id}`)).filter(
      (m) => m.result,
    );
    if (taken.length >= 2) {
      target = { patientId: p.id, id: taken[taken.length - 1]!.id };
      break;
    }
  }
  expect(target).toBeDefined();
  const problems: Record<string, unknown[]> = {};
  for (const language of Languages) {
    await inLanguage(page, language, `/patient/${target!.patientId}/perimetry/${target!.id}`);
    await expect(page.locator("figure.plot canvas").first()).toBeVisible();
    await page.waitForTimeout(500);
    const found = [...(await overlappingCanvasText(page)), ...(await clippedCanvasText(page)), ...(await clippedHtml(page))];
    if (language === "de" || language === "bp") await screenshot(page, `result-${language}`);
    // The result list's bin confirmation (issue 21 §3).
    await page.locator(`li#measurement-${target!.id}`).getByRole("button").last().click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    found.push(...(await clippedHtml(page, '[role="alertdialog"]')));
    await page.keyboard.press("Escape");
    // The printout's header on A4 (the print scene's; German and Dutch once pushed the last column off the page).
    await page.getByTestId("print-button").click();
    await expect(page.getByTestId("print-page")).toBeAttached();
    await page.emulateMedia({ media: "print" });
    found.push(...(await clippedPrintHeader(page)));
    if (language === "de" || language === "chi") await screenshot(page, `print-${language}`);
    await page.emulateMedia({ media: "screen" });
    if (found.length > 0) problems[language] = found;
  }
  expect(problems).toEqual({});
});

test("Simplified Chinese is offered in the language switcher and the app then speaks it", async ({ page }) => {
  await page.goto("/login");
  const select = page.getByRole("combobox", { name: "Language" });
  await expect(select.locator("option")).toHaveText([
    "English",
    "Deutsch",
    "Français",
    "Italiano",
    "Español",
    "Português (Brasil)",
    "Nederlands",
    "Türkçe",
    "简体中文",
  ]);
  await select.selectOption("chi");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
  expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("chi");
  await expect(page.getByRole("button", { name: /登录/ })).toBeVisible();
  await screenshot(page, "login-chi");
});

test("a result's stimulus size 'III adaptive' speaks the reader's language (issue 30: it stayed English)", async ({ page }) => {
  await logInAs(page, "user");
  const patients = await pageApi<{ entries: Array<{ id: string }> }>(page, "POST", "patient/search", {
    filter: { name: "", birthdate: null },
    page: 0,
    quantity: 50,
  });
  let target: { patientId: string; id: string } | undefined;
  for (const p of patients.entries) {
    const adaptive = (
      await pageApi<Array<{ id: string; result: { stimulusSize: number } | null }>>(page, "GET", `perimetry/all?patientId=${p.id}`)
    ).find((m) => m.result?.stimulusSize === 5);
    if (adaptive) {
      target = { patientId: p.id, id: adaptive.id };
      break;
    }
  }
  expect(target, "the demo clinic has a SORS result (size III adaptive)").toBeDefined();
  const expected: Record<string, string> = { en: "III adaptive", de: "III adaptiv", fr: "III adaptatif", chi: "III 自适应" };
  for (const [language, words] of Object.entries(expected)) {
    await inLanguage(page, language, `/patient/${target!.patientId}/perimetry/${target!.id}`);
    await expect(page.getByTestId("indices-parameters").locator('tr[data-index="stimulusSize"] td.num')).toHaveText(words);
  }
});
