import { defineConfig } from "vitest/config";

// Unit, property, contract and component tests. Playwright journeys live in e2e/ and run separately.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
