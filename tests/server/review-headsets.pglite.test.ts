import { reviewHeadsetsSuite } from "./review-headsets-suite.ts";

// The review queue fed by lent headsets (issue 31 §2, §3) on embedded PostgreSQL (PGlite in memory).
reviewHeadsetsSuite("pglite");
