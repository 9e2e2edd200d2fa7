import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, password, screenshot } from "./support.ts";

// The help centre as the seeds describe it (issue 21 §7; accounts seed §1 "plus a support widget", §2 "Help centre and
// manuals"): the support widget on every page, pictures for the topics, the users manual as embedded PDF documents.

async function logInAs(page: Page, username: string) {
  await page.goto("/login");
  await page.getByLabel(/^Username/).fill(username);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
}

test("the support widget: a floating help button with the contact addresses and a form that composes the support e-mail", async ({
  page,
}) => {
  await logInAs(page, "user");
  await page.goto("/technician");
  await page.getByRole("button", { name: "Help" }).click();
  const widget = page.getByRole("dialog", { name: "Contact support" });
  await expect(widget.getByRole("link", { name: "support@isopter.example" })).toHaveAttribute("href", "mailto:support@isopter.example");
  await expect(widget.getByRole("link", { name: "info@isopter.example" })).toHaveAttribute("href", "mailto:info@isopter.example");
  await expect(widget.getByLabel("Subject")).toBeFocused();
  // Nothing is composed without a subject and a message.
  await widget.getByRole("button", { name: "Write the e-mail" }).click();
  await expect(widget.getByText("This field is required.")).toHaveCount(2);
  await expectAccessible(page);
  await widget.getByLabel("Subject").fill("Lane shows disconnected");
  await widget.getByLabel("Message").fill("Room 2 & Room 3 show disconnected since 9:00?");
  await widget.getByRole("button", { name: "Write the e-mail" }).click();
  const href = await widget.getByTestId("support-mailto").getAttribute("href");
  const mail = new URL(href!);
  const version = (await (await page.request.get("/api/version")).json()).data.version as string;
  expect(mail.protocol).toBe("mailto:");
  expect(mail.pathname).toBe("support@isopter.example");
  expect(mail.searchParams.get("subject")).toBe("Lane shows disconnected");
  expect(mail.searchParams.get("body")).toBe(
    `Room 2 & Room 3 show disconnected since 9:00?\r\n\r\n--\r\nIsopter ${version}\r\nPage: /technician\r\nRole: user\r\nLanguage: en`,
  );
  await screenshot(page, "support-widget");
  // Escape closes it and gives the focus back to the button.
  await page.keyboard.press("Escape");
  await expect(widget).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Help" })).toBeFocused();
});

/** A PDF's document title and language, as Chromium wrote them (Title as UTF-16BE hex, Lang as a literal). */
async function readPdf(request: APIRequestContext, url: string): Promise<{ title: string; lang: string }> {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  const bytes = await res.body();
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const text = bytes.toString("latin1");
  // The document information's Title (followed by its Creator; the outline's entries have titles too): an ASCII title
  // is a literal string, any other UTF-16BE in hex.
  const info = /\/Title (?:<FEFF([0-9A-F]+)>|\(([^)]*)\))\s*\/Creator/.exec(text);
  const title = info?.[1] ? String.fromCharCode(...(info[1].match(/.{4}/g) ?? []).map((h) => parseInt(h, 16))) : (info?.[2] ?? "");
  return { title, lang: /\/Lang \(([a-z-]+)\)/.exec(text)?.[1] ?? "" };
}

test("the users manual: a PDF per market and part (FDA, UK, MDR; MDR Spain and Germany in their language), embedded by market", async ({
  page,
  request,
}) => {
  // "the document depends on the market (FDA, MDR, UK) and, for MDR, on country (ES and DE have own documents, others a
  // default)"; "Help PDFs in English, Spanish, German".
  const documents = { fda: "en", uk: "en", mdr: "en", "mdr-es": "es", "mdr-de": "de" };
  const partWord = { en: "part", es: "parte", de: "Teil" };
  for (const [doc, lang] of Object.entries(documents)) {
    for (const part of [1, 2]) {
      const pdf = await readPdf(request, `/manuals/${doc}/part-${part}.pdf`);
      expect(pdf.lang, `${doc} part ${part}`).toBe(lang);
      expect(pdf.title, `${doc} part ${part}`).toContain(`${partWord[lang as keyof typeof partWord]} ${part}`);
    }
  }
  // Each demo clinic sees its own market's document, embedded, part 1 first.
  for (const login of ["user", "appt.user"]) {
    await logInAs(page, login);
    const profile = (
      await (
        await page.request.get("/api/user/profile", {
          headers: { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem("accessToken"))}` },
        })
      ).json()
    ).data as { market: string; country: string | null };
    const doc =
      profile.market === "MDR"
        ? profile.country === "ES"
          ? "mdr-es"
          : profile.country === "DE"
            ? "mdr-de"
            : "mdr"
        : profile.market.toLowerCase();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "User manual" }).click();
    await expect(page).toHaveURL(/\/users-manual\/part-one$/);
    await expect(page.getByTitle("User manual, part 1")).toHaveAttribute("src", `/manuals/${doc}/part-1.pdf`);
    await page.getByRole("link", { name: "Part 2" }).click();
    await expect(page.getByTitle("User manual, part 2")).toHaveAttribute("src", `/manuals/${doc}/part-2.pdf`);
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login/);
  }
});

test("the help centre's topics show a picture of their screen in the interface language", async ({ page }) => {
  await logInAs(page, "user");
  for (const [language, question] of [
    ["en", "How do I plan a measurement?"],
    ["de", "Wie plane ich eine Messung?"],
    ["bp", null],
  ] as const) {
    await page.evaluate((l) => localStorage.setItem("language", l), language);
    await page.goto("/support");
    const items = page.locator("details.faq");
    // Open every question, then every picture has loaded from its language's folder with a name saying what it shows.
    await expect(items).toHaveCount(24); // web/pages/support/faq.ts: 24 topics (import, priors and the worklist since issue 29; how reliable progression analysis is since issue 30; single sign-on and two-step sign-in since issue 33; home monitoring and the review queue since issue 31)
    for (const summary of await items.locator("summary").all()) await summary.click();
    const pictures = page.getByTestId("faq-picture");
    expect(await pictures.count()).toBeGreaterThanOrEqual(10);
    for (const img of await pictures.all()) {
      await img.scrollIntoViewIfNeeded();
      await expect(img).toHaveAttribute("src", new RegExp(`^/help/${language}/[a-z-]+\\.jpg$`));
      await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).toBeGreaterThan(100);
    }
    if (question)
      await expect(page.locator("#faq-plan-measurement").getByRole("img")).toHaveAccessibleName(new RegExp(question.replace("?", "\\?")));
    await expectAccessible(page);
    if (language !== "en") await screenshot(page, `support-pictures-${language}`);
  }
});
