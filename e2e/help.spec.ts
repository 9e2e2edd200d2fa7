import { expect, test, type Page } from "@playwright/test";
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

test("the support widget: a floating help button with the contact addresses and a form that composes the support e-mail", async ({ page }) => {
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
  expect(mail.searchParams.get("body")).toBe(`Room 2 & Room 3 show disconnected since 9:00?\r\n\r\n--\r\nIsopter ${version}\r\nPage: /technician\r\nRole: user\r\nLanguage: en`);
  await screenshot(page, "support-widget");
  // Escape closes it and gives the focus back to the button.
  await page.keyboard.press("Escape");
  await expect(widget).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Help" })).toBeFocused();
});
