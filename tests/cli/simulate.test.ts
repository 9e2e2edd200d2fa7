import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isopter, tempHome } from "./harness.ts";

// isopter simulate starts simulator/start.ts in a child process (server + virtual headsets) and logs the profile in.

describe("isopter simulate", () => {
  it("starts the server with N headsets, logs in, the devices show up connected, and one more can be added", async () => {
    const home = tempHome();
    const env = { ISOPTER_HOME: home };
    const data = mkdtempSync(join(tmpdir(), "isopter-sim-"));
    const sim = isopter(
      [
        "simulate",
        "--port",
        "0",
        "--headsets",
        "2",
        "--speed",
        "5",
        "--data-dir",
        data,
        "--demo-password",
        "Sim-Pass-123",
        "--login",
        "--duration",
        "60",
        "--json",
      ],
      { env },
    );
    let connected: Array<{ deviceSn: string; connection: string }> = [];
    for (let i = 0; i < 200 && connected.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 250));
      if (!existsSync(join(home, "tokens", "default.token"))) continue;
      const list = await isopter(["devices", "list", "--json"], { env });
      if (list.code === 0) connected = (JSON.parse(list.stdout) as typeof connected).filter((d) => d.connection === "CONNECTED");
    }
    expect(connected.map((d) => d.deviceSn).sort()).toEqual(["VR-0001", "VR-0002"]);
    // While it runs, the CLI controls its headsets (simulator/start.ts gives the server the headsets' control).
    const added = await isopter(["simulate", "headsets", "add", "--json"], { env });
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).headsets.map((h: { deviceSn: string }) => h.deviceSn)).toEqual(["VR-0003"]);
    for (let i = 0; i < 200 && connected.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 250));
      connected = (JSON.parse((await isopter(["devices", "list", "--json"], { env })).stdout) as typeof connected).filter(
        (d) => d.connection === "CONNECTED",
      );
    }
    expect(connected.map((d) => d.deviceSn).sort()).toEqual(["VR-0001", "VR-0002", "VR-0003"]);
    process.emit("SIGINT"); // the command forwards Ctrl-C to the simulator, which shuts down cleanly
    const run = await sim;
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      profile: "default",
      headsets: 2,
      server: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(run.stderr).toContain("Isopter listening on");
  }, 120_000);

  it("rejects a bad speed and a bad database URL with exit 2", async () => {
    expect((await isopter(["simulate", "--speed", "0"])).code).toBe(2);
    const bad = await isopter(["simulate", "--database-url", "mysql://x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--database-url must start with postgres/);
  });
});
