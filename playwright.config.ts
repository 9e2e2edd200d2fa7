import { defineConfig } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Journeys in Debian's Chromium (never a downloaded browser) against the whole stack: the web build served by
// `npm start` on a free port with a throwaway data directory. Workers inherit the chosen port through the environment.
if (!process.env.E2E_PORT) {
  const probe = spawnSync(process.execPath, ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"]);
  process.env.E2E_PORT = probe.stdout.toString().trim();
}
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "isopter-e2e-"));
export const demoPassword = (process.env.E2E_DEMO_PASSWORD ??= "Demo-pass-1!");
const port = process.env.E2E_PORT;
// E2E_BASE_URL points the journeys at a stack that is already running (for development); then no server is started.
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // Parallel runs on one machine can each keep their own artifacts (E2E_OUTPUT_DIR).
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium", viewport: { width: 1280, height: 800 } } }],
  webServer: external ? undefined : {
    command: "npm start", // builds the web app first
    url: `${baseURL}/api/version`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      DEMO_PASSWORD: demoPassword,
      HEADSETS: "0",
      NODE_ENV: "production",
    },
  },
});
