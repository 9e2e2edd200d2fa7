import { expect, type Page, type APIRequestContext } from "@playwright/test";
import { createRequire } from "node:module";

// Shared steps for the journeys: the demo logins printed by `npm start`, axe checks and screenshots.
export const password = process.env.E2E_DEMO_PASSWORD ?? "Demo-pass-1!";
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export async function logIn(page: Page, username: "manager" | "user" | "admin") {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** axe-core on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page) {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown; html: string }> }> }> } }).axe.run(document);
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => `${String(n.target)} ${n.html.slice(0, 120)}`) }));
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
