import { clusterSuite } from "./cluster-suite.ts";

// Issue 17: three processes behind nginx, talking over LISTEN/NOTIFY on their database (the default bus). The same
// suite on NATS is cluster-nats.test.ts (issue 32 §2).
clusterSuite("postgres");
