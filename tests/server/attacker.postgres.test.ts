import { describe, it } from "vitest";
import { attackerSuite } from "./attacker/suite.ts";

// Issue 15's attacker suite on a real PostgreSQL server (TEST_DATABASE_URL, set by `npm test`).
if (process.env.TEST_DATABASE_URL) attackerSuite("postgres");
else describe("attacker suite on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
