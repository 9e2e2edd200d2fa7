import { attackerSuite } from "./attacker/suite.ts";

// Issue 15's attacker suite on embedded PostgreSQL (PGlite in memory).
attackerSuite("pglite");
