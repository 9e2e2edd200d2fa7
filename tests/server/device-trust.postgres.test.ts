import { describe, it } from "vitest";
import { deviceTrustSuite } from "./device-trust-suite.ts";

// The same attacker suite on a real PostgreSQL server (TEST_DATABASE_URL, set by `npm test`).
if (process.env.TEST_DATABASE_URL) deviceTrustSuite("postgres");
else describe("device trust suite on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
