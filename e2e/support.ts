import { expect, type Page, type APIRequestContext } from "@playwright/test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// Shared steps for the journeys: the demo logins printed by `npm start`, axe checks and screenshots.
export const password = process.env.E2E_DEMO_PASSWORD ?? "Demo-pass-1!";
// Evaluated through the DevTools protocol, not added as a <script>: the app's Content-Security-Policy allows no inline script.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export async function logIn(page: Page, username: "manager" | "user" | "admin") {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** axe-core on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown; html: string }> }> }>;
        };
      }
    ).axe.run(document);
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => `${String(n.target)} ${n.html.slice(0, 120)}`) }));
  });
  expect(violations).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** A bearer token for API calls made by the test itself (outbox, set-up). */
export async function apiToken(request: APIRequestContext, username: string): Promise<string> {
  const res = await request.post("/api/login", { data: { username, password } });
  expect(res.ok()).toBe(true);
  return (await res.json()).data.accessToken as string;
}

/** A device lane as GET device/all answers it (the fields the technician journeys read). */
export interface ServerLane {
  id: string;
  deviceSn: string;
  alias: string;
  revision: number;
  status: string;
  connection: string;
  perimetries: Array<{ id: string; displayName: string; patientId: string; isFollowingEye: string | null }>;
  appointments?: Array<{ id: string; patientId: string; examinations: Array<{ id: string; type: string; taken: boolean }> }>;
}

/**
 * Calls the API with the page's own session (a second login of the same user would end the page's session).
 * Answers the envelope's data; fails the test on an error status.
 */
export async function pageApi<T = unknown>(
  page: Page,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  data?: unknown,
): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("accessToken"));
  const res = await page.request.fetch(`/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as T;
}

/** The lanes as the server stores them, read with the page's session. */
export const serverLanes = (page: Page) => pageApi<ServerLane[]>(page, "GET", "device/all");

/** The technician view's lane of one headset. */
export const laneOf = (page: Page, deviceSn: string) => page.locator(`[data-testid="lane"][data-device-sn="${deviceSn}"]`);

/** Card ids of a lane in the order the page shows them. */
export const shownCardIds = (page: Page, deviceSn: string) =>
  laneOf(page, deviceSn)
    .locator(".lane-cards [data-card-id]")
    .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-card-id")!));

/**
 * Starts a mouse drag: presses on `from`, passes the 6 px activation distance, then glides to `to` (page coordinates)
 * in small steps so the drag library sees every move. The button stays down: the caller looks at the landing mark,
 * then drops with `page.mouse.up()`.
 */
export async function pointerDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 16 });
  // The drag library settles on the last position before the drop.
  await page.mouse.move(to.x + 1, to.y, { steps: 2 });
}

/**
 * "Delete and move actions need confirmation" (both seeds §5): after a drop the move waits for its dialog, which names
 * the test and where it goes; this confirms it.
 */
export async function confirmMove(page: Page, item: "measurement" | "appointment" = "measurement") {
  const dialog = page.getByRole("alertdialog", { name: `Move this ${item}?` });
  await expect(dialog.getByTestId("test-subject")).toBeVisible();
  // The drag library (dnd-kit's pointer sensor) swallows every click for 50 ms after a drag ends, and a test clicks
  // sooner than a person can: a click it swallowed is made again, as the person would, until the dialog closes.
  await expect(async () => {
    if ((await dialog.count()) > 0) await dialog.getByRole("button", { name: "Move", exact: true }).click({ timeout: 1_000 });
    await expect(dialog).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 7_000 });
}

/**
 * Every CSP violation the page reports: Chromium logs most as a console error starting "Refused to"; a refused
 * WebAssembly compile is thrown to the caller instead (PoPLR's sieve catches it and counts exhaustively), so the
 * document's securitypolicyviolation events are collected too (read them with `reportedViolations`).
 */
export const cspViolations = (page: Page) => {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  void page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => w.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  return seen;
};

/** The securitypolicyviolation events of the current document (after `cspViolations`). */
export const reportedViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
