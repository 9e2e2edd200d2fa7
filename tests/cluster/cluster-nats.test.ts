import { clusterSuite } from "./cluster-suite.ts";

// Issue 32 §2: "The cluster suite runs on both" buses: here the three processes behind nginx talk over a nats-server
// of their own (NATS_URL). The default bus is cluster.test.ts.
clusterSuite("nats");
