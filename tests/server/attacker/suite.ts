import { afterAll, beforeAll, describe } from "vitest";
import { headsetControl, type AttachableHeadsetControl } from "../../../simulator/control/headset-control.ts";
import { NO_FAULTS, startHeadsets } from "../../../simulator/headset/index.ts";
import { headsetKeys, startTestServer, type Backend, type TestServer } from "../harness.ts";
import { browserSurfaceCases, devRoutesScopeCases } from "./browser-surface.ts";
import { auditCases } from "./audit.ts";
import { auditTamperCases } from "./audit-tamper.ts";
import { fieldIsolationCases, isolationCases } from "./isolation.ts";
import { LIMIT_SETTINGS, limitCases } from "./limits.ts";
import { sessionCases } from "./sessions.ts";
import { ssoAttackCases } from "./sso.ts";
import { secondFactorCases } from "./second-factor.ts";
import { homeAttackCases } from "./home.ts";

// Issue 15, played by an attacker against the running server (the demo clinic and the appointment clinic, two
// organisations on one server), on PGlite and on PostgreSQL: attacker.pglite.test.ts / attacker.postgres.test.ts.

export const attackerSuite = (backend: Backend) => {
  describe(`trust boundary on ${backend}`, () => {
    let server: TestServer;
    let control: AttachableHeadsetControl;
    let offsetMs = 0;
    beforeAll(async () => {
      const quiet = () => undefined;
      control = headsetControl({ speed: 5, faults: NO_FAULTS, log: quiet });
      server = await startTestServer(backend, { simulator: control, settings: LIMIT_SETTINGS, now: () => Date.now() + offsetMs });
      const deviceUrl = `${server.url.replace(/^http/, "ws")}/device`;
      const serials = ["VR-0001", "VR-A001"];
      control.attach(
        deviceUrl,
        await startHeadsets({ url: deviceUrl, serials, keys: await headsetKeys(server, serials), speed: 5, faults: NO_FAULTS, log: quiet }),
      );
    }, 180_000);
    afterAll(async () => {
      await control?.stop();
      await server?.drop();
    });
    describe("§4 the browser surface", () => browserSurfaceCases(backend, () => server));
    describe("§4 dev routes stay inside the organisation", () => devRoutesScopeCases(() => server));
    describe("§5 isolation between organisations", () => {
      isolationCases(() => server);
      fieldIsolationCases(() => server);
    });
    describe("issue 31 §5: a lent home headset", () => homeAttackCases(() => server));
    describe("§6 the audit trail", () => auditCases(() => server));
    describe("issue 33 §3 audit tampering, found by verify", () => auditTamperCases(() => server));
    describe("§2 sessions that end", () => sessionCases(() => server));
    describe("issue 33 single sign-on", () => ssoAttackCases(() => server));
    describe("issue 33: the second factor", () =>
      secondFactorCases(
        () => server,
        () => (offsetMs += LIMIT_SETTINGS.resetWindowMs + 1_000),
      ));
    describe("§3 login limits", () =>
      limitCases(
        () => server,
        () => (offsetMs += LIMIT_SETTINGS.resetWindowMs + 1_000),
      ));
  });
};
