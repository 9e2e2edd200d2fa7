import { describe, it } from "vitest";
import { contractSuite } from "./contract-suite.ts";

// The same contract suite on a real PostgreSQL server: `npm test` starts a throwaway cluster and sets
// TEST_DATABASE_URL; the suite creates and drops its own database inside it.
if (process.env.TEST_DATABASE_URL) contractSuite("postgres");
else describe("contract suite on postgres", () => it.skip("needs TEST_DATABASE_URL (npm test sets it)", () => undefined));
