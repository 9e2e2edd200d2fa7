import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiToken, laneOf, logIn, screenshot } from "./support.ts";

// A headset that drops off the network (scheduling seed §4 "Connection": "No heartbeat for 4 s marks it
// disconnected", "An abnormal close ... marks it disconnected"; §9 "device disconnect timeout 4 s"). The stack of this
// project has no headsets of its own, so the journey runs one virtual headset for VR-0001 in a process of its own
// (simulator/headset/main.ts), then freezes it (the socket stays open, the heartbeats stop) and kills it. Like any
// headset it proves who it is (issue 15): a manager issues VR-0001 a device credential, which the headset presents.

const SN = "VR-0001";

async function credentialFor(request: APIRequestContext, deviceSn: string): Promise<string> {
  const headers = { authorization: `Bearer ${await apiToken(request, "manager")}` };
  const enrolments = (await (await request.get("/api/device/enrolments", { headers })).json()).data as Array<{
    id: string;
    deviceSn: string;
  }>;
  const id = enrolments.find((e) => e.deviceSn === deviceSn)!.id;
  const issued = await request.post(`/api/device/reenrol?id=${id}`, { headers, data: { secret: "credential" } });
  expect(issued.ok(), await issued.text()).toBe(true);
  return (await issued.json()).data.secret.value as string;
}

function startHeadset(deviceUrl: string, credential: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "simulator/headset/main.ts", deviceUrl, `${SN}=${credential}`], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HEADSET_KEYS: join(mkdtempSync(join(tmpdir(), "isopter-keys-")), "keys.json") },
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

test("a headset that goes silent or drops its connection shows as disconnected within 4 s", async ({ page, request }, info) => {
  test.setTimeout(60_000);
  const base = String(info.project.use.baseURL);
  const headset = startHeadset(`${base.replace(/^http/, "ws")}/device`, await credentialFor(request, SN));
  try {
    await logIn(page, "user");
    await page.getByRole("link", { name: "Technician" }).click();
    const connection = laneOf(page, SN).getByTestId("connection");
    await expect(connection).toContainText("Connected", { timeout: 20_000 });
    await expect(connection).toContainText("Waiting for a measurement");
    await screenshot(page, "technician-disconnect-connected");

    // Frozen: the socket stays open but no heartbeat comes. The last one was at most 1 s (the headset's beat) earlier.
    headset.kill("SIGSTOP");
    const frozenAt = Date.now();
    await expect(connection).toHaveText("Disconnected", { timeout: 4_000 + 1_500 });
    info.annotations.push({ type: "silent headset shown disconnected after", description: `${Date.now() - frozenAt} ms` });
    // It cannot take a command until it beats again.
    await expect(laneOf(page, SN).getByRole("group", { name: "Test controls" }).getByRole("button")).toHaveCount(2);
    for (const control of await laneOf(page, SN).getByRole("group", { name: "Test controls" }).getByRole("button").all())
      await expect(control).toBeDisabled();
    await screenshot(page, "technician-disconnect-silent");

    // Back: the heartbeats resume and the lane is connected again.
    headset.kill("SIGCONT");
    await expect(connection).toContainText("Connected", { timeout: 10_000 });
    await expect(laneOf(page, SN).getByRole("button", { name: "Start", exact: true })).toBeEnabled();

    // Killed: its socket closes abnormally; the server says so at once.
    headset.kill("SIGKILL");
    const killedAt = Date.now();
    await expect(connection).toHaveText("Disconnected", { timeout: 4_000 });
    info.annotations.push({ type: "killed headset shown disconnected after", description: `${Date.now() - killedAt} ms` });
    await expect(laneOf(page, SN).getByRole("button", { name: "Stop", exact: true })).toBeDisabled();
  } finally {
    if (headset.exitCode === null && headset.signalCode === null) {
      headset.kill("SIGCONT");
      headset.kill("SIGKILL");
    }
  }
});
