import { expect, test, type Page } from "@playwright/test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { loginFiles, type ManifestChunk } from "../scripts/login-files.ts";
import { password, screenshot } from "./support.ts";

// /login's first paint (issue 18): it downloads the first-paint catalog, not the full one, and exactly the JavaScript
// `npm run size:login` counts; the full catalog comes with the client, so no screen ever shows a message id instead of
// its text, through a language switch on /login, the login, and a switch afterwards. Runs against the build in dist/web
// (the one `npm start` serves).

const dist = new URL("../dist/web/", import.meta.url);
// Read when a test runs: the web server (`npm start`) builds dist/web after the spec files load.
const readManifest = () => JSON.parse(readFileSync(new URL(".vite/manifest.json", dist), "utf8")) as Record<string, ManifestChunk>;

// Lingui's message ids as the compiled catalogs key them (@lingui/message-utils generateMessageId): the first six
// base64 characters of SHA-256 over the message, the unit separator and the context (none here).
const messageId = (message: string) => createHash("sha256").update(`${message}\u001F`).digest("base64").slice(0, 6);
const englishMessages = [...readFileSync(new URL("../web/locales/en/messages.po", import.meta.url), "utf8").matchAll(/^msgid (".*")$/gm)]
  .map((m) => JSON.parse(m[1]!) as string)
  .filter((m) => m !== "");

/** Records, from the page's first script on, every message id that shows in text, labels, titles or the tab's title. */
async function watchForIds(page: Page, ids: string[]) {
  await page.addInitScript((list: string[]) => {
    const known = new Set(list);
    const seen: string[] = ((window as unknown as { idsSeen: string[] }).idsSeen = []);
    const check = (text: string | null | undefined) => {
      for (const token of (text ?? "").split(/[^A-Za-z0-9+/]+/)) if (known.has(token)) seen.push(token);
    };
    const scan = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) check(node.textContent);
      if (node instanceof Element) {
        for (const name of ["aria-label", "title", "placeholder", "alt"]) check(node.getAttribute(name));
        for (const child of node.childNodes) scan(child);
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "characterData") check(r.target.textContent);
        else if (r.type === "attributes") check((r.target as Element).getAttribute(r.attributeName!));
        else for (const n of r.addedNodes) scan(n);
      }
      check(document.title);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  }, ids);
}
const idsSeen = (page: Page) => page.evaluate(() => (window as unknown as { idsSeen: string[] }).idsSeen);

test("/login loads the first-paint catalog only; no message id shows through a language switch, the login and after", async ({ page }) => {
  const manifest = readManifest();
  const ids = englishMessages.map(messageId);
  // The ids are the compiled catalogs' keys: the English first-paint catalog holds the one of "Log in".
  const firstPaintAsset = readFileSync(new URL(manifest["locales/en/first-paint.po"]!.file, dist), "utf8");
  expect(firstPaintAsset).toContain(messageId("Log in"));
  await watchForIds(page, ids);
  const scripts: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith(".js")) scripts.push(path.slice(1));
  });

  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  // Exactly what `npm run size:login` counts, so its figure is what /login downloads.
  expect(new Set(scripts)).toEqual(loginFiles(manifest));
  expect(scripts).not.toContain(manifest["locales/en/messages.po"]!.file);
  await screenshot(page, "first-paint-login-en");

  // Nothing filled in: the rule messages show, translated, after a switch to Dutch.
  await page.getByRole("combobox", { name: "Language" }).selectOption("nl");
  await expect(page.locator("html")).toHaveAttribute("lang", "nl");
  await page.getByRole("button", { name: "Inloggen" }).click();
  await expect(page.getByText("Dit veld is verplicht.").first()).toBeVisible();
  await screenshot(page, "first-paint-login-nl");

  // A switch to German and the login's submit at once: the home page opens in German.
  await page.getByRole("textbox", { name: /^Gebruikersnaam/ }).fill("user");
  await page.getByRole("textbox", { name: "Wachtwoord", exact: true }).fill(password);
  await page.getByRole("combobox", { name: "Taal" }).selectOption("de");
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { name: "Startseite" })).toBeVisible();
  expect(scripts).toContain(manifest["locales/de/messages.po"]!.file);
  await page.waitForLoadState("networkidle");
  await screenshot(page, "first-paint-home-de");

  // After the login a switch loads the new language's full catalog with its first-paint one.
  await page.getByRole("link", { name: "Einstellungen" }).click();
  await page.getByRole("combobox", { name: "Sprache" }).selectOption("fr");
  await expect(page.getByRole("heading", { name: "Paramètres" })).toBeVisible();
  await page.getByRole("link", { name: "Accueil" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.waitForLoadState("networkidle");
  expect(await idsSeen(page)).toEqual([]);
});

test("the watch sees a message id on screen", async ({ page }) => {
  await watchForIds(page, [messageId("Log in")]);
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.evaluate((id) => {
    document.querySelector("h1")!.textContent = id;
  }, messageId("Log in"));
  await expect.poll(() => idsSeen(page)).toEqual([messageId("Log in")]);
});
