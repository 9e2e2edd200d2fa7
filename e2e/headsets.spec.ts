import { expect, test } from "@playwright/test";
import WebSocket from "ws";
import { expectAccessible, logIn, screenshot } from "./support.ts";

// Issue 15, point 1: a manager enrols a headset in the Headsets section of the users/admin area, the headset exchanges
// the one-time pairing code on the device socket, the manager renames it and revokes it, and the live headset is
// closed with the reason at once.

test("a manager enrols a headset with a pairing code, the headset pairs, then the manager renames and revokes it", async ({ page }) => {
  const serial = `VR-E2E-${Date.now().toString(36).toUpperCase()}`;
  await logIn(page, "manager");
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Headsets" });
  await section.getByLabel(/^Serial number/).fill(serial);
  await section.getByLabel("Name (optional)").fill("Room E2E");
  await section.getByRole("button", { name: "Enrol headset" }).click();

  // The code, shown once.
  const dialog = page.getByRole("dialog", { name: `Pairing code for ${serial}` });
  const code = (await dialog.getByTestId("enrolment-secret").textContent()) ?? "";
  expect(code).toMatch(/^[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}$/);
  await expect(dialog).toContainText("It is shown only this once");
  await screenshot(page, "headsets-pairing-code");
  await dialog.getByRole("button", { name: "Done" }).click();
  const row = section.locator(`tr[data-serial="${serial}"]`);
  await expect(row).toContainText("Waiting for pairing");
  await expect(row).toContainText("Room E2E");

  // The headset presents the code in its first frame and gets its credential, then its welcome.
  const frames: Array<{ type: string; reason?: string; credential?: string }> = [];
  const socket = new WebSocket(`${new URL(page.url()).origin.replace(/^http/, "ws")}/device`);
  const closed = new Promise<number>((resolve) => socket.once("close", (c) => resolve(c)));
  socket.on("message", (data) => frames.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => (socket.once("open", () => resolve()), socket.once("error", reject)));
  socket.send(JSON.stringify({ type: "hello", protocolVersion: 2, deviceSn: serial, firmware: "e2e-1", pairingCode: code }));
  await expect.poll(() => frames.map((f) => f.type).slice(0, 2)).toEqual(["enrolled", "welcome"]);
  expect(frames[0]!.credential).toMatch(/^isd1\./);
  // It beats every second, as a headset does (the technician's 4 s rule marks a silent one disconnected).
  const beat = () =>
    socket.readyState === WebSocket.OPEN &&
    socket.send(JSON.stringify({ type: "heartbeat", battery: { vr: 80, clicker: 70, vrCharging: false, clickerCharging: false } }));
  beat();
  const beating = setInterval(beat, 1000);

  // No reload: the connection follows the live socket and the row its enrolment.
  await expect(row).toContainText("Enrolled");
  await expect(row).toContainText("Connected");
  await row.getByRole("button", { name: `Rename ${serial}` }).click();
  await row.getByLabel(`Name of ${serial}`).fill("Room Revoke");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("Room Revoke");
  await expectAccessible(page);
  await screenshot(page, "headsets-enrolled");

  await row.getByRole("button", { name: `Revoke ${serial}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Revoke ${serial}?` });
  await expect(confirm).toContainText("disconnected at once");
  await confirm.getByRole("button", { name: "Revoke headset" }).click();
  await expect(row).toContainText("Revoked");
  // The live headset was refused with the reason and closed at once.
  expect(await closed).toBe(4003);
  clearInterval(beating);
  expect(frames.at(-1)).toMatchObject({ type: "refused", reason: "revoked" });
  await expect(row.getByRole("button", { name: `Revoke ${serial}` })).toHaveCount(0);
  await screenshot(page, "headsets-revoked");
});
