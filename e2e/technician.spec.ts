import { expect, test, type Page } from "@playwright/test";
import { confirmMove, expectAccessible, logIn, screenshot } from "./support.ts";

// The technician view against the real server (no virtual headsets in this run: the lanes are disconnected).
// Each journey reads the lane order back from the API, so what the page shows is what the server stored.

interface Lane {
  id: string;
  deviceSn: string;
  revision: number;
  perimetries: Array<{ id: string; displayName: string; isFollowingEye: string | null }>;
}

/** The lanes as the server stores them, read with the page's own session (a new login would end it). */
async function lanes(page: Page): Promise<Lane[]> {
  const token = await page.evaluate(() => sessionStorage.getItem("accessToken"));
  const res = await page.request.get("/api/device/all", { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()).data as Lane[];
}

const cardNames = (page: Page) => page.getByTestId("lane").first().locator("[data-card-id] .mcard-title").allInnerTexts();

/** Keyboard drag: space lifts the focused card, the right arrow moves it one place, space drops it. */
async function liftMoveDrop(page: Page) {
  await page.keyboard.press("Space");
  await expect(page.locator("[data-dragging=true]")).toHaveCount(1);
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(200);
  await page.keyboard.press("Space");
  await confirmMove(page);
}

async function openTechnician(page: Page, username: "user" | "manager" = "user") {
  await logIn(page, username);
  await page.getByRole("link", { name: "Technician" }).click();
  await expect(page.getByTestId("lane").first()).toBeVisible();
}

test("schedule a measurement for both eyes: the pair joins the lane, linked", async ({ page }) => {
  await openTechnician(page);
  const before = (await lanes(page))[0]!.perimetries.length;
  const lane = page.getByTestId("lane").first();
  await lane.getByRole("button", { name: /^New measurement on/ }).click();
  const dialog = page.getByRole("dialog", { name: "New measurement" });
  const save = dialog.getByRole("button", { name: "Save", exact: true });
  await expect(save).toBeDisabled();
  await dialog.getByRole("listbox", { name: "Patients" }).getByRole("option").first().click();
  await expect(dialog.getByLabel("Display name")).toHaveValue(/^Test /);
  await dialog.getByLabel(/^Eye/).selectOption({ label: "Both eyes" });
  await dialog.getByLabel(/^Pattern/).selectOption({ label: "24-2" });
  await dialog.getByLabel(/^Strategy/).selectOption({ label: "Dynamic" });
  await expect(dialog.getByTestId("estimate")).toContainText("per eye");
  await dialog.getByLabel("Notes").fill("first visit");
  await expect(dialog.locator(".notes-counter")).toHaveText("11/256");
  await expectAccessible(page);
  await screenshot(page, "technician-form");
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(lane.locator("[data-card-id]")).toHaveCount(before + 2);
  const queue = (await lanes(page))[0]!.perimetries;
  const [right, left] = queue.slice(-2);
  expect(left!.isFollowingEye).toBe(right!.id);
  await expect(lane.locator(`[data-card-id="${right!.id}"]`)).toHaveAttribute("data-linked", "true");
  await screenshot(page, "technician-lanes");
});

test("reorder a lane by keyboard; the server keeps the new order", async ({ page }) => {
  await openTechnician(page);
  const names = await cardNames(page);
  expect(names.length).toBeGreaterThanOrEqual(2);
  const first = page.getByTestId("lane").first().locator("[data-card-id]").first();
  await first.focus();
  await liftMoveDrop(page);
  const expected = [names[1]!, names[0]!, ...names.slice(2)];
  await expect.poll(() => cardNames(page)).toEqual(expected);
  await expect.poll(async () => (await lanes(page))[0]!.perimetries.map((m) => m.displayName)).toEqual(expected);
});

test("two browsers dragging at the same time end in the same order as the server", async ({ browser }) => {
  const [a, b] = [await browser.newPage(), await browser.newPage()];
  // Two people of the same clinic (one login each: a second login of the same user ends the first session).
  await openTechnician(a, "user");
  await openTechnician(b, "manager");
  const move = async (page: Page) => {
    const card = page.getByTestId("lane").first().locator("[data-card-id]").first();
    await card.focus();
    await liftMoveDrop(page);
  };
  await Promise.all([move(a), move(b)]);
  // One drop wins; the other is refused as stale (409) and both pages refetch or follow the live event.
  await expect
    .poll(
      async () => {
        const server = (await lanes(a))[0]!.perimetries.map((m) => m.displayName);
        const [ca, cb] = [await cardNames(a), await cardNames(b)];
        return JSON.stringify(ca) === JSON.stringify(server) && JSON.stringify(cb) === JSON.stringify(server);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  await a.close();
  await b.close();
});

test("?scrollTo={deviceSn}/{id} blinks the card and returns to /technician", async ({ page }) => {
  await logIn(page, "user");
  const lane = (await lanes(page))[0]!;
  const target = lane.perimetries[lane.perimetries.length - 1]!;
  await page.goto(`/technician?scrollTo=${lane.deviceSn}/${target.id}`);
  await expect(page.locator(`[data-card-id="${target.id}"]`)).toHaveClass(/mcard-blink/);
  await expect(page).toHaveURL(/\/technician$/, { timeout: 5_000 });
  await expect(page.locator(`[data-card-id="${target.id}"]`)).not.toHaveClass(/mcard-blink/);
});

test("a drop between a linked pair is refused with 'cannot drop here' and its hint; the order stays", async ({ page }) => {
  await openTechnician(page);
  const queue = (await lanes(page))[0]!.perimetries;
  const right = queue.findIndex((m, i) => queue[i + 1]?.isFollowingEye === m.id);
  expect(right).toBeGreaterThan(0);
  const cards = page.getByTestId("lane").first().locator("[data-card-id]");
  const a = (await cards.nth(0).boundingBox())!;
  const b = (await cards.nth(right).boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + 20);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 30, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2 + 10, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(page.getByText("cannot drop here no items between linked cards")).toBeVisible();
  // The seeds' drop dialog: 'Drop not allowed'; 'no items between linked cards'.
  const refused = page.getByRole("alertdialog", { name: "Drop not allowed" });
  await expect(refused).toContainText("no items between linked cards");
  await refused.getByRole("button", { name: "OK" }).click();
  await expect(refused).toHaveCount(0);
  const after = (await lanes(page))[0]!.perimetries.map((m) => m.id);
  expect(after).toEqual(queue.map((m) => m.id));
});

test("at 1440x900 the measurement form with the default SORS strategy keeps its Save row whole in view; the form scrolls inside the dialog", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openTechnician(page);
  await page
    .getByTestId("lane")
    .first()
    .getByRole("button", { name: /^New measurement on/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "New measurement" });
  await dialog.getByRole("listbox", { name: "Patients" }).getByRole("option").first().click();
  await expect(dialog.getByLabel("Display name")).toHaveValue(/^Test /);
  // The defaults of a new form (pattern G, strategy SORS): SORS adds its locations field, the form's tallest arrangement.
  await dialog.getByLabel(/^Pattern/).selectOption({ label: "G" });
  await dialog.getByLabel(/^Strategy/).selectOption({ label: "SORS" });
  await expect(dialog.getByLabel(/^SORS locations/)).toBeVisible();
  const save = dialog.getByRole("button", { name: "Save", exact: true });
  await expect(save).toBeEnabled();
  // Whole: inside the window and inside the dialog's own box (a scrolled-away or half-cut row fails either).
  const fullyIn = async () => {
    const b = (await save.boundingBox())!;
    const d = (await dialog.boundingBox())!;
    return b.y >= 0 && b.y + b.height <= 900 && b.x >= 0 && b.x + b.width <= 1440 && b.y >= d.y && b.y + b.height <= d.y + d.height;
  };
  expect(await fullyIn()).toBe(true);
  // Nothing lies over it: the point at each of its corners' insides is the button.
  const hits = await save.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return [
      [r.left + 2, r.top + 2],
      [r.right - 2, r.top + 2],
      [r.left + 2, r.bottom - 2],
      [r.right - 2, r.bottom - 2],
    ].every(([x, y]) => el.contains(document.elementFromPoint(x!, y!)));
  });
  expect(hits).toBe(true);
  // The fields scroll inside the dialog; the Save row stays where it is.
  const form = dialog.locator("form.mform");
  expect(await form.evaluate((f) => f.scrollHeight > f.clientHeight || f.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
  await form.evaluate((f) => f.scrollTo(0, f.scrollHeight));
  expect(await fullyIn()).toBe(true);
  await screenshot(page, "technician-form-1440x900");
});
