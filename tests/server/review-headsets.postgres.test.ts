import { describe, it } from "vitest";
import { reviewHeadsetsSuite } from "./review-headsets-suite.ts";

// The same suite on a real PostgreSQL server (TEST_DATABASE_URL, set by `npm test`).
if (process.env.TEST_DATABASE_URL) reviewHeadsetsSuite("postgres");
else
  describe("review queue fed by home headsets on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
