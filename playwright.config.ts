import { defineConfig } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Journeys in Debian's Chromium (never a downloaded browser) against the whole stack: the web build served by
// `npm start` on a free port with a throwaway data directory. Workers inherit the chosen ports through the environment.
//
// Two stacks, one project each:
// - "chromium": HEADSETS=0, every lane disconnected, nothing changes by itself (deterministic journeys).
// - "live": the live specs (LIVE_SPECS) against a second stack with virtual headsets at LIVE_SPEED, so tests run, pause,
//   stream progress and finish in seconds. It serves the web build the first stack made (web servers start in order).
//   It is started only when the run can select a live spec (no file filter, or a filter naming one).
const freePort = () =>
  spawnSync(process.execPath, [
    "-e",
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .stdout.toString()
    .trim();
process.env.E2E_PORT ??= freePort();
process.env.E2E_LIVE_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "isopter-e2e-"));
process.env.E2E_LIVE_DATA_DIR ??= mkdtempSync(join(tmpdir(), "isopter-e2e-live-"));
export const demoPassword = (process.env.E2E_DEMO_PASSWORD ??= "Demo-pass-1!");
/** The live stack's headsets: one per registered device (VR-0001 ... VR-0004), at this many times real time. */
export const LIVE_HEADSETS = 4;
export const LIVE_SPEED = Number((process.env.E2E_LIVE_SPEED ??= "20"));
const LIVE_SPECS = /(technician-live|appointments)\.spec\.ts$/;

const port = process.env.E2E_PORT;
const livePort = process.env.E2E_LIVE_PORT;
// E2E_BASE_URL (and E2E_LIVE_BASE_URL for the live specs, with headsets) point the journeys at stacks that are already
// running (for development); then no server is started.
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://127.0.0.1:${port}`;
const liveBaseURL = process.env.E2E_LIVE_BASE_URL ?? external ?? `http://127.0.0.1:${livePort}`;

/** False when the command line filters files and none of the filters can match a live spec. */
const liveWanted = (() => {
  const args = process.argv.slice(process.argv.indexOf("test") + 1);
  if (args.some((a) => /^(-g|--grep|--grep-invert|--project|--last-failed|--only-changed)(=|$)/.test(a))) return true;
  const filters = args.filter((a) => !a.startsWith("-"));
  return filters.length === 0 || filters.some((f) => LIVE_SPECS.test(f) || /live|appointments|^e2e\/?$/.test(f));
})();

const stack = (env: Record<string, string>) => ({
  PORT: port!,
  HOST: "127.0.0.1",
  DATA_DIR: process.env.E2E_DATA_DIR!,
  DEMO_PASSWORD: demoPassword,
  HEADSETS: "0",
  NODE_ENV: "production",
  // The journeys read the outbox and drive simulated headsets through /api/dev/*.
  ISOPTER_DEV_ROUTES: "on",
  ...env,
});

const chromium = {
  browserName: "chromium" as const,
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

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
  use: { baseURL, trace: "retain-on-failure" },
  projects: [
    { name: "chromium", testIgnore: LIVE_SPECS, use: { ...chromium, baseURL } },
    // Tall enough for all four lanes (one with its live panel), so pointer drags between lanes need no scrolling.
    { name: "live", testMatch: LIVE_SPECS, use: { ...chromium, viewport: { width: 1280, height: 1700 }, baseURL: liveBaseURL } },
  ],
  webServer: external
    ? undefined
    : [
        {
          command: "npm start", // builds the web app first
          url: `${baseURL}/api/version`,
          timeout: 180_000,
          reuseExistingServer: false,
          stdout: "pipe",
          stderr: "pipe",
          env: stack({}),
        },
        ...(liveWanted && !process.env.E2E_LIVE_BASE_URL
          ? [
              {
                // The build is the first stack's (it is up before this one starts).
                command: "npx tsx simulator/start.ts",
                url: `${liveBaseURL}/api/version`,
                timeout: 120_000,
                reuseExistingServer: false,
                stdout: "pipe" as const,
                stderr: "pipe" as const,
                env: stack({
                  PORT: livePort!,
                  DATA_DIR: process.env.E2E_LIVE_DATA_DIR!,
                  HEADSETS: String(LIVE_HEADSETS),
                  SPEED: String(LIVE_SPEED),
                }),
              },
            ]
          : []),
      ],
});
