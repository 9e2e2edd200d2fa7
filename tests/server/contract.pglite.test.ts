import { contractSuite } from "./contract-suite.ts";

// The contract suite on embedded PostgreSQL (PGlite in memory).
contractSuite("pglite");
