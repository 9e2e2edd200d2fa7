import { deviceTrustSuite } from "./device-trust-suite.ts";

// Headset enrolment and the device socket's trust boundary on embedded PostgreSQL (PGlite in memory).
deviceTrustSuite("pglite");
