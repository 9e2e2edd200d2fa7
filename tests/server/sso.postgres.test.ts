import { describe, it } from "vitest";
import { ssoSuite } from "./sso-suite.ts";

// The same on a real PostgreSQL server (TEST_DATABASE_URL, set by `npm test`).
if (process.env.TEST_DATABASE_URL) ssoSuite("postgres");
else describe("single sign-on on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
