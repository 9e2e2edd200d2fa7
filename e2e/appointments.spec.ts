import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiToken, confirmMove, laneOf, logIn, pageApi, pointerDrag, screenshot, serverLanes, shownCardIds } from "./support.ts";

// The appointment variant of the technician view against the stack with virtual headsets (project "live").
// How a clinic gets it: the organisation's multi-tests plugin (PATCH /api/dev/organisation, admins, our design) lets
// the server take appointments with several examinations; the browser shows the appointment variant when its v2
// scheduling key is set in local storage (scheduling seed §3 "Browser storage"; core/client reads it at start).
// The demo clinic has the plugin off, so this file switches it on for its journeys and off again afterwards.

const SPEED = Number(process.env.E2E_LIVE_SPEED ?? 20);
/** An Amsler test (40 s) then a 24-2 dynamic test with audio guide and calibration, at SPEED, with room to spare. */
const RUN_MS = Math.ceil(((40 + 85 + 50 + 5 + 330) * 1000) / SPEED) * 3 + 30_000;

async function setMultiTests(request: APIRequestContext, on: boolean) {
  const token = await apiToken(request, "admin");
  const res = await request.patch("/api/dev/organisation", { headers: { authorization: `Bearer ${token}` }, data: { multiTests: on } });
  expect(res.ok(), await res.text()).toBe(true);
}

test.beforeAll(async ({ request }) => setMultiTests(request, true));
test.afterAll(async ({ request }) => setMultiTests(request, false));

test.beforeEach(async ({ page }) => {
  // The v2 scheduling key, before the app starts its client.
  await page.addInitScript(() => localStorage.setItem("schedulingV2", "true"));
});

async function openTechnician(page: Page) {
  await logIn(page, "user");
  await page.getByRole("link", { name: "Technician" }).click();
  await expect(page.getByTestId("lane").first()).toBeVisible();
}

/** Set-up: the lane queues nothing (queued measurements would run before an appointment). */
async function clearLane(page: Page, deviceSn: string) {
  const lane = (await serverLanes(page)).find((l) => l.deviceSn === deviceSn)!;
  for (const m of lane.perimetries) await pageApi(page, "DELETE", `perimetry/trash?id=${m.id}`);
  for (const a of lane.appointments ?? []) await pageApi(page, "DELETE", `appointment/trash?id=${a.id}`);
  await expect(laneOf(page, deviceSn).locator("[data-card-id]")).toHaveCount(0);
}

const appointmentsOf = async (page: Page, deviceSn: string) =>
  (await serverLanes(page)).find((l) => l.deviceSn === deviceSn)!.appointments ?? [];

test("schedule an appointment with the wizard, reorder its examinations, drag it to another lane and run it", async ({ page }) => {
  test.setTimeout(RUN_MS + 60_000);
  const [first, second] = ["VR-0003", "VR-0004"];
  await openTechnician(page);
  await clearLane(page, first);
  await clearLane(page, second);
  await expect(laneOf(page, first)).toContainText("No appointments queued.");

  // The plus control opens the wizard: patient, tests, one configuration step per test, summary, 'Save tests'.
  await laneOf(page, first).getByRole("button", { name: "New appointment on Room 3" }).click();
  const wizard = page.getByRole("dialog", { name: "New appointment" });
  const next = wizard.getByRole("button", { name: "Next", exact: true });
  await expect(next).toBeDisabled();
  await wizard.getByRole("listbox", { name: "Patients" }).getByRole("option").first().click();
  await next.click();
  await expect(next).toBeDisabled();
  await wizard.getByRole("checkbox", { name: "Perimetry" }).check();
  await wizard.getByRole("checkbox", { name: "Amsler grid" }).check();
  await next.click();
  await expect(wizard.getByRole("heading", { name: "Test 1 of 2: Perimetry" })).toBeVisible();
  await wizard.getByLabel(/^Eye/).selectOption({ label: "Right eye" });
  await wizard.getByLabel(/^Pattern/).selectOption({ label: "24-2" });
  await wizard.getByLabel(/^Strategy/).selectOption({ label: "Dynamic" });
  await next.click();
  await expect(wizard.getByRole("heading", { name: "Test 2 of 2: Amsler grid" })).toBeVisible();
  await wizard.getByLabel(/^Eye/).selectOption({ label: "Right eye" });
  await next.click();
  const summary = wizard.getByRole("region", { name: "Summary" });
  await expect(summary.getByRole("listitem")).toHaveText(["Perimetry · Right eye · 24-2 · Dynamic", "Amsler grid · Right eye"]);
  await screenshot(page, "technician-appointment-wizard");
  await wizard.getByRole("button", { name: "Save tests" }).click();
  await expect(wizard).toHaveCount(0);

  // The card: 40 units high, its examinations in run order.
  const card = laneOf(page, first).locator(".acard");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("2 tests");
  expect((await card.boundingBox())!.height).toBe(160);
  const [appointment] = await appointmentsOf(page, first);
  expect(appointment!.examinations.map((e) => e.type)).toEqual(["perimetry", "amsler"]);

  // The side panel: reorder by keyboard (space lifts, arrow moves, space drops); the server keeps the order.
  await card.click();
  const panel = page.getByTestId("appointment-panel");
  const rows = panel.locator(".apanel-handle");
  await expect(rows).toHaveText(["Perimetry · Right eye", "Amsler grid · Right eye"]);
  await rows.first().focus();
  await page.keyboard.press("Space");
  await expect(panel.locator(".apanel-row[data-dragging=true]")).toHaveCount(1);
  // The row below makes way (moves up) once the lifted one is over it. The drag library measures the rows just after
  // the lift, so an arrow pressed too early can go unheard: press again (there is no place further down to overshoot).
  await expect(async () => {
    await page.keyboard.press("ArrowDown");
    await expect(panel.locator(".apanel-row").nth(1)).toHaveAttribute("style", /translate3d\(0(px)?, -\d+px/, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await page.keyboard.press("Space");
  await expect(rows).toHaveText(["Amsler grid · Right eye", "Perimetry · Right eye"]);
  await expect.poll(async () => (await appointmentsOf(page, first))[0]!.examinations.map((e) => e.type)).toEqual(["amsler", "perimetry"]);
  await screenshot(page, "technician-appointment-panel");
  await panel.getByRole("button", { name: "Close" }).click();

  // Drag the whole appointment to the other lane.
  const from = (await card.boundingBox())!;
  const to = (await laneOf(page, second).locator(".lane-cards").boundingBox())!;
  await pointerDrag(page, { x: from.x + from.width / 2, y: from.y + 20 }, { x: to.x + 120, y: to.y + to.height / 2 });
  await page.mouse.up();
  await confirmMove(page, "appointment");
  await expect.poll(() => shownCardIds(page, second)).toEqual([appointment!.id]);
  await expect.poll(async () => (await appointmentsOf(page, second)).map((a) => a.id)).toEqual([appointment!.id]);
  expect(await appointmentsOf(page, first)).toEqual([]);

  // Run it: the Amsler test first (the new order), then perimetry; taken examinations are counted on the card.
  const moved = laneOf(page, second).locator(".acard");
  // The headset has the appointment in its queue (a status change would reset the confirmation dialog).
  await expect(laneOf(page, second).getByTestId("connection")).toContainText("Waiting for a measurement", { timeout: 15_000 });
  await laneOf(page, second).getByRole("button", { name: "Start", exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: "Start the test?" });
  await confirm.getByRole("button", { name: "Start", exact: true }).click();
  await expect(confirm).toHaveCount(0, { timeout: 15_000 });
  await expect(moved).toHaveAttribute("data-running", "true");
  await expect(moved.locator(".mcard-foot .num")).toHaveText("1/2", { timeout: RUN_MS / 2 });
  await expect(page.locator(".toast", { hasText: "measurement ready" }).first()).toBeVisible();
  // The perimetry examination runs next; its live panel draws the examination's 24-2 locations.
  const live = laneOf(page, second).getByTestId("live-panel");
  await expect(live).toBeVisible({ timeout: RUN_MS / 2 });
  // It names the appointment's patient, the examination, its eye and pattern, and the room.
  const patient = await pageApi<{ name: string; uniqueId: string }>(page, "GET", `patient?id=${appointment!.patientId}`);
  await expect(live.getByTestId("patient-name")).toHaveText(`${patient.name} · ${patient.uniqueId}`);
  await expect(live).toContainText(/Perimetry · (Right|Left) eye · 24-2 · Room 4/);
  await expect(live.getByRole("list", { name: "Legend" }).getByRole("listitem")).toHaveText(["Answered", "Not answered", "Presented"]);
  await expect.poll(() => live.locator("svg circle").count()).toBeGreaterThanOrEqual(54);
  await screenshot(page, "technician-appointment-running");
  await expect
    .poll(
      async () =>
        (await pageApi<Array<{ id: string; examinations: Array<{ type: string; taken: boolean }> }>>(page, "GET", "appointment/all"))
          .find((a) => a.id === appointment!.id)
          ?.examinations.map((e) => `${e.type}:${e.taken}`),
      { timeout: RUN_MS / 2 },
    )
    .toEqual(["amsler:true", "perimetry:false"]);

  // Stop the rest: the lanes are left as they were.
  await laneOf(page, second).getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Stop the test?" }).getByRole("button", { name: "Stop", exact: true }).click();
  await expect(laneOf(page, second).getByTestId("connection")).toContainText(/Stopped|Waiting for a measurement/, { timeout: 15_000 });
  await clearLane(page, second);
});
