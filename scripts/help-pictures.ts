import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Locator, type Page } from "playwright";
import { Languages } from "../core/model/enums.ts";
import { helpPictures, type HelpPicture } from "../web/pages/support/help-pictures.ts";

// The help centre's pictures ("Videos and images illustrate them", accounts seed §2; issue 21 §7): screenshots of the
// real screens, one per topic and interface language, taken from a running demo clinic with Debian's Chromium.
//   HEADSETS=0 npm start                      # a fresh demo clinic (every lane disconnected, nothing moves)
//   BASE=http://127.0.0.1:4170 DEMO_PASSWORD=... npm run help:pictures
// writes web/public/help/<language>/<topic>.jpg; commit them. The list of topics is web/pages/support/help-pictures.ts.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const base = process.env.BASE ?? "http://127.0.0.1:4170";
const password = process.env.DEMO_PASSWORD ?? "Demo-pass-1!";
const only = process.env.LANGUAGES?.split(",");

async function logIn(page: Page, username: string) {
  await page.goto(`${base}/login`);
  await page
    .getByLabel(/^(Username|Benutzername)/)
    .first()
    .fill(username);
  await page.locator('input[type="password"]').first().fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(/\/home$/);
}

async function api<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([path, body]) => {
      const res = await fetch(`/api/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${sessionStorage.getItem("accessToken")}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()).data;
    },
    [path, body] as const,
  ) as Promise<T>;
}

/** Waits until the page has loaded its data (no skeleton or spinner) and fonts, then a frame for the canvas plots. */
async function settled(page: Page) {
  await page
    .locator('[aria-busy="true"], .spinner-page')
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => {});
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
}

/** The browser's own locale follows the interface language, so date fields show the clinic's date format. */
const browserLocale: Record<string, string> = { chi: "zh-CN", mexsp: "es-MX", bp: "pt-BR", es: "es-ES", en: "en-GB" };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  for (const language of Languages.filter((l) => !only || only.includes(l))) {
    const options = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: browserLocale[language] ?? language };
    const context = await browser.newContext(options);
    const outside = await browser.newContext(options);
    const page = await context.newPage();
    const guest = await outside.newPage();
    await logIn(page, "manager");
    await page.evaluate((l) => localStorage.setItem("language", l), language);
    await guest.goto(`${base}/login`);
    await guest.evaluate((l) => localStorage.setItem("language", l), language);
    const patients = await api<{ entries: Array<{ id: string; name: string }> }>(page, "patient/search", {
      filter: { name: "", birthdate: null },
      page: 0,
      quantity: 50,
    });
    let target: { patientId: string; resultId: string; name: string } | undefined;
    for (const p of patients.entries) {
      const taken = (await api<Array<{ id: string; result: unknown }>>(page, `perimetry/all?patientId=${p.id}`)).filter((m) => m.result);
      if (taken.length > 1) {
        target = { patientId: p.id, resultId: taken[0]!.id, name: p.name };
        break;
      }
    }
    if (!target) throw new Error("no demo patient with results: run against a fresh demo clinic (npm start)");
    const lane = () => page.locator('[data-testid="lane"]').first();

    // Each picture: how to reach its screen, and which part of it to keep.
    const shots: Partial<Record<HelpPicture, (page: Page) => Promise<Locator>>> = {
      "create-patient": async (p) => {
        await p.goto(`${base}/home`);
        await settled(p);
        await p.locator("main .btn-primary").first().click();
        return p.locator('[role="dialog"]').first();
      },
      "edit-patient": async (p) => {
        await p.goto(`${base}/patient/${target!.patientId}/perimetry/all`);
        await settled(p);
        return p.locator("main header.card");
      },
      "delete-patient": async (p) => {
        await p.goto(`${base}/bin/deleted-patients`);
        await settled(p);
        return p.locator("main .page").first();
      },
      "view-patient": async (p) => {
        await p.goto(`${base}/home`);
        await p.getByRole("searchbox").fill(target!.name.slice(0, 3));
        await p.waitForTimeout(900);
        await settled(p);
        return p.locator("main .page").first();
      },
      "plan-measurement": async (p) => {
        await p.goto(`${base}/technician`);
        await lane().waitFor();
        await settled(p);
        await lane().locator(".lane-tools .btn-primary").click();
        return p.locator('[role="dialog"]').first();
      },
      "view-measurement": async (p) => {
        await p.goto(`${base}/patient/${target!.patientId}/perimetry/${target!.resultId}`);
        await settled(p);
        return p.locator('[data-testid="result-display"]');
      },
      "restart-measurement": async (p) => {
        await p.goto(`${base}/technician`);
        await lane().waitFor();
        await settled(p);
        return lane();
      },
      "device-setup": async (p) => {
        await p.goto(`${base}/technician`);
        await lane().waitFor();
        await settled(p);
        return lane();
      },
      "change-password": async (p) => {
        await p.goto(`${base}/settings`);
        await settled(p);
        return p.locator('section[aria-labelledby="password-heading"]');
      },
      "invite-users": async (p) => {
        await p.goto(`${base}/admin`);
        await settled(p);
        return p.locator('section[aria-labelledby="invite-heading"]');
      },
      "troubleshooting-offline": async (p) => {
        await p.goto(`${base}/home`);
        await settled(p);
        await context.setOffline(true);
        await p.waitForTimeout(2_600);
        return p.locator(".auth-card");
      },
    };
    const loggedOut: Partial<Record<HelpPicture, (page: Page) => Promise<Locator>>> = {
      "reset-password": async (p) => {
        await p.goto(`${base}/password-reset`);
        await settled(p);
        return p.locator(".auth-card");
      },
      "troubleshooting-session": async (p) => {
        await p.goto(`${base}/login?sessionExpired=1`);
        await settled(p);
        return p.locator(".auth-card");
      },
    };

    for (const topic of helpPictures) {
      const take = shots[topic] ?? loggedOut[topic];
      const viewer = topic in shots ? page : guest;
      if (!take) throw new Error(`no way to take ${topic}`);
      const target = await take(viewer);
      const file = join(root, "web", "public", "help", language, `${topic}.jpg`);
      mkdirSync(dirname(file), { recursive: true });
      // At most 640 px tall: the part of the screen the answer talks about (the result page's head, not every plot).
      await target.scrollIntoViewIfNeeded();
      const box = (await target.boundingBox())!;
      const scrollY = await viewer.evaluate(() => window.scrollY);
      await viewer.screenshot({
        path: file,
        type: "jpeg",
        quality: 78,
        animations: "disabled",
        fullPage: true,
        clip: { x: box.x, y: box.y + scrollY, width: box.width, height: Math.min(box.height, 640) },
      });
      if (topic === "troubleshooting-offline") {
        await context.setOffline(false);
        await page.waitForTimeout(300);
      }
      await viewer.keyboard.press("Escape");
      console.log(file.slice(root.length + 1));
    }
    await context.close();
    await outside.close();
  }
} finally {
  await browser.close();
}
