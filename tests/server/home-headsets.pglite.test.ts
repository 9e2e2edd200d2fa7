import { homeHeadsetsSuite } from "./home-headsets-suite.ts";

// Lent headsets of home programmes (issue 31) on embedded PostgreSQL (PGlite in memory).
homeHeadsetsSuite("pglite");
