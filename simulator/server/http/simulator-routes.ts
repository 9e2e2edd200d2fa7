import { settingsBodyProblem, type simulatorControl } from "../../../adapters/http/simulator-control.ts";
import type { ServerContext } from "../context.ts";
import { Failure } from "./failure.ts";
import type { SpecHandlers } from "./handler.ts";
import { claimsOf } from "./handler.ts";
import { deviceBySn, deviceRows, insertDevice, withQueues } from "../store/devices.ts";
import { newId } from "../store/ids.ts";
import { pairingCodesFor } from "../device/enrolment.ts";
import { type HeadsetControl, UnknownHeadset } from "../../control/port.ts";

// The simulator's control calls (specs and wire: adapters/http/simulator-control.ts), mounted through the router
// beside dev-routes.ts:
//   GET    /api/dev/simulator/headsets              the running virtual headsets
//   POST   /api/dev/simulator/headsets              {count, profile?, speed?}: register, enrol and start more
//   DELETE /api/dev/simulator/headsets?deviceSn=SN  switch one off for good (the device stays registered)
//   PATCH  /api/dev/simulator/headsets              {deviceSn | all: true, profile?, speed?}
//   POST   /api/dev/simulator/faults                {deviceSn, fault, seconds?}
// Admins and managers only (the specs' roles), and only inside the caller's organisation: a headset whose serial is
// registered to another organisation is not_found, as if it did not run (issue 15 §4). A server started without
// headsets (tests, a plain startServer) answers not_found with field "simulator". The headsets come in through the
// port simulator/start.ts hands the server (simulator/control/port.ts); simulator/control imports nothing of the server.

const MAX_SERIAL = 9999; // deviceSerial pads to four digits

/** The demo seed (serial names, ensureDevices) loads with the first add, not with every server. */
const demoSeed = () => import("../demo/seed.ts");

const noSimulator = () =>
  new Failure("not_found", "This server does not run simulated headsets (start it with `npm start` or `isopter simulate`)", "simulator");

/** UnknownHeadset as not_found naming the field it came in. */
const known = <T>(field: string, run: () => T): T => {
  try {
    return run();
  } catch (e) {
    if (e instanceof UnknownHeadset) throw new Failure("not_found", e.message, field);
    throw e;
  }
};

/**
 * The next `count` serials VR-nnnn for the caller's organisation: lowest first, skipping those a headset runs and those
 * registered elsewhere (a serial is unique across organisations); a device registered here with no headset is reused.
 */
const freeSerials = async (ctx: ServerContext, org: string, control: HeadsetControl, count: number) => {
  const { deviceSerial } = await demoSeed();
  const rows = await ctx.db.query<{ sn: string; org: string }>(
    `select device_sn as sn, organisation_id as org from devices where device_sn like 'VR-%'`,
  );
  const owner = new Map(rows.map((r) => [r.sn, r.org]));
  const chosen: Array<{ sn: string; n: number; registered: boolean }> = [];
  for (let n = 1; chosen.length < count && n <= MAX_SERIAL; n++) {
    const sn = deviceSerial(n);
    const o = owner.get(sn);
    if (control.has(sn) || (o !== undefined && o !== org)) continue;
    chosen.push({ sn, n, registered: o !== undefined });
  }
  if (chosen.length < count) throw new Failure("validation_error", `body.count: only ${chosen.length} more serials are free`, "body.count");
  return chosen;
};

/** Registers the new serials in the organisation (the demo organisation through the seed's ensureDevices, so they get
 * its aliases) and tells the organisation's browsers (a device insert event), so the technician view shows them. */
const register = async (ctx: ServerContext, org: string, chosen: ReadonlyArray<{ sn: string; n: number; registered: boolean }>) => {
  const fresh = chosen.filter((c) => !c.registered);
  if (fresh.length === 0) return;
  const demoOrg = (await ctx.db.query<{ id: string }>("select id from organisations order by created_at limit 1"))[0]?.id;
  if (org === demoOrg) await (await demoSeed()).ensureDevices(ctx.db, Math.max(...fresh.map((c) => c.n)));
  else
    await ctx.db.transaction(async (tx) => {
      for (const c of fresh) await insertDevice(tx, org, newId(), c.sn, `Headset ${c.n}`, new Date(ctx.now()).toISOString());
    });
  for (const c of fresh) {
    const row = await deviceBySn(ctx.db, org, c.sn);
    if (row) ctx.live.publish(org, { type: "device", operation: "insert", data: await withQueues(ctx.db, org, row), deviceSn: c.sn });
  }
};

/** The serials registered to the organisation (the headsets its staff may see and steer). */
const ownSerials = async (ctx: ServerContext, org: string) => new Set((await deviceRows(ctx.db, org)).map((d) => d.deviceSn));

/** A serial of another organisation answers exactly as one that runs nowhere. */
const ownHeadset = async (ctx: ServerContext, org: string, sn: string) => {
  if (!(await deviceBySn(ctx.db, org, sn))) throw new UnknownHeadset(sn);
};

const knownAsync = async (field: string, run: () => Promise<void>) => {
  try {
    await run();
  } catch (e) {
    if (e instanceof UnknownHeadset) throw new Failure("not_found", e.message, field);
    throw e;
  }
};

export const simulatorHandlers = (simulator: HeadsetControl | undefined): SpecHandlers<typeof simulatorControl> => {
  const control = () => {
    if (!simulator?.ready) throw noSimulator();
    return simulator;
  };
  // Adds run one at a time: two at once would pick the same free serials.
  let adding: Promise<unknown> = Promise.resolve();

  return {
    "simulator.headsets": async (call) => {
      const c = control();
      const own = await ownSerials(call.ctx, claimsOf(call).organisationId);
      return { data: { headsets: c.list().filter((h) => own.has(h.deviceSn)) } };
    },
    "simulator.add": async (call) => {
      const c = control();
      const { ctx, body: b } = call;
      const org = claimsOf(call).organisationId;
      const run = adding.then(async () => {
        const chosen = await freeSerials(ctx, org, c, b.count);
        await register(ctx, org, chosen);
        // Enrolled through the same pairing codes a manager would hand a real headset.
        const codes = await pairingCodesFor(
          ctx,
          chosen.map((x) => x.sn),
        );
        return c.add(
          chosen.map((x) => ({ deviceSn: x.sn, pairingCode: codes.get(x.sn)! })),
          { ...(b.profile !== undefined ? { profile: b.profile } : {}), ...(b.speed !== undefined ? { speed: b.speed } : {}) },
        );
      });
      adding = run.catch(() => undefined);
      return { data: { headsets: await run } };
    },
    "simulator.remove": async (call) => {
      const c = control();
      const sn = call.query.deviceSn;
      await knownAsync("query.deviceSn", () => ownHeadset(call.ctx, claimsOf(call).organisationId, sn));
      return { data: known("query.deviceSn", () => c.remove(sn)) };
    },
    "simulator.settings": async (call) => {
      const c = control();
      const b = call.body;
      const org = claimsOf(call).organisationId;
      const problem = settingsBodyProblem(b);
      if (problem) throw new Failure("validation_error", `${problem.field}: ${problem.message}`, problem.field);
      const settings = { ...(b.profile !== undefined ? { profile: b.profile } : {}), ...(b.speed !== undefined ? { speed: b.speed } : {}) };
      if (b.deviceSn !== undefined) {
        const sn = b.deviceSn;
        await knownAsync("body.deviceSn", () => ownHeadset(call.ctx, org, sn));
        return { data: { headsets: known("body.deviceSn", () => c.configure({ deviceSn: sn }, settings)) } };
      }
      // "all": every running headset of the caller's organisation, one by one.
      const own = await ownSerials(call.ctx, org);
      const mine = c.list().filter((h) => own.has(h.deviceSn));
      return { data: { headsets: mine.flatMap((h) => c.configure({ deviceSn: h.deviceSn }, settings)) } };
    },
    "simulator.fault": async (call) => {
      const c = control();
      const b = call.body;
      await knownAsync("body.deviceSn", () => ownHeadset(call.ctx, claimsOf(call).organisationId, b.deviceSn));
      const done = known("body.deviceSn", () => c.fault(b.deviceSn, b.fault, b.seconds));
      return { data: { deviceSn: b.deviceSn, fault: b.fault, seconds: done.seconds } };
    },
  };
};
