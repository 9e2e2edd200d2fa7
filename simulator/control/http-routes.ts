import type { IncomingMessage, ServerResponse } from "node:http";
import { Result, type Schema } from "effect";
import {
  AddHeadsetsBodySchema,
  FaultBodySchema,
  HeadsetSettingsBodySchema,
  RemoveHeadsetQuerySchema,
  settingsBodyProblem,
} from "../../adapters/http/simulator-control.ts";
import { decode, decodeJson } from "../../core/model/decode.ts";
import { Role } from "../../core/model/enums.ts";
import type { ServerContext } from "../server/context.ts";
import { sendOk } from "../server/http/envelope.ts";
import { Failure, refusedToken } from "../server/http/failure.ts";
import { readBodyText } from "../server/http/request-body.ts";
import { deviceBySn, deviceRows, insertDevice, withQueues } from "../server/store/devices.ts";
import { newId } from "../server/store/ids.ts";
import { pairingCodesFor } from "../server/device/enrolment.ts";
import { type HeadsetControl, UnknownHeadset } from "./port.ts";

// The simulator's control calls on the server (wire: adapters/http/simulator-control.ts), mounted by dev-routes.ts:
//   GET    /api/dev/simulator/headsets              the running virtual headsets
//   POST   /api/dev/simulator/headsets              {count, profile?, speed?}: register, enrol and start more
//   DELETE /api/dev/simulator/headsets?deviceSn=SN  switch one off for good (the device stays registered)
//   PATCH  /api/dev/simulator/headsets              {deviceSn | all: true, profile?, speed?}
//   POST   /api/dev/simulator/faults                {deviceSn, fault, seconds?}
// Admins and managers only, and only inside the caller's organisation: a headset whose serial is registered to another
// organisation is not_found, as if it did not run (issue 15 §4). A server started without headsets (tests, a plain startServer) answers not_found with
// field "simulator".

const MAX_SERIAL = 9999; // deviceSerial pads to four digits

/** The demo seed (serial names, ensureDevices) loads with the first add, not with every server. */
const demoSeed = () => import("../server/demo/seed.ts");

const staff = async (ctx: ServerContext, req: IncomingMessage) => {
  const match = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? "");
  if (!match?.[1]) throw new Failure("unauthorized", "A bearer token is required");
  const check = await ctx.authenticate(match[1]);
  if (!check.ok) throw refusedToken(check);
  if (check.claims.role !== Role.Admin && check.claims.role !== Role.Manager) throw new Failure("forbidden", "Admins and managers only");
  return check.claims;
};


const body = async <T>(req: IncomingMessage, schema: Schema.Codec<T, any, never, never>): Promise<T> => {
  const decoded = decodeJson(schema, await readBodyText(req));
  if (Result.isFailure(decoded)) {
    const field = `body${decoded.failure.field ? "." + decoded.failure.field : ""}`;
    throw new Failure("validation_error", `${field}: ${decoded.failure.issues[0]?.message ?? decoded.failure.message}`, field);
  }
  return decoded.success;
};

const query = <T>(req: IncomingMessage, schema: Schema.Codec<T, any, never, never>): T => {
  const params = Object.fromEntries(new URL(req.url ?? "/", "http://x").searchParams);
  const decoded = decode(schema, params);
  if (Result.isFailure(decoded)) {
    const field = `query${decoded.failure.field ? "." + decoded.failure.field : ""}`;
    throw new Failure("validation_error", `${field}: ${decoded.failure.issues[0]?.message ?? decoded.failure.message}`, field);
  }
  return decoded.success;
};

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
  const rows = await ctx.db.query<{ sn: string; org: string }>(`select device_sn as sn, organisation_id as org from devices where device_sn like 'VR-%'`);
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

export const simulatorRoutes = (ctx: ServerContext, simulator: HeadsetControl | undefined) => {
  const control = async (req: IncomingMessage) => {
    const claims = await staff(ctx, req);
    if (!simulator?.ready) throw noSimulator();
    return { claims, control: simulator };
  };
  // Adds run one at a time: two at once would pick the same free serials.
  let adding: Promise<unknown> = Promise.resolve();

  return {
    "GET dev/simulator/headsets": async (req: IncomingMessage, res: ServerResponse) => {
      const { claims, control: c } = await control(req);
      const own = await ownSerials(ctx, claims.organisationId);
      sendOk(res, { data: { headsets: c.list().filter((h) => own.has(h.deviceSn)) } });
    },
    "POST dev/simulator/headsets": async (req: IncomingMessage, res: ServerResponse) => {
      const { claims, control: c } = await control(req);
      const b = await body(req, AddHeadsetsBodySchema);
      const run = adding.then(async () => {
        const chosen = await freeSerials(ctx, claims.organisationId, c, b.count);
        await register(ctx, claims.organisationId, chosen);
        // Enrolled through the same pairing codes a manager would hand a real headset.
        const codes = await pairingCodesFor(ctx, chosen.map((x) => x.sn));
        return c.add(
          chosen.map((x) => ({ deviceSn: x.sn, pairingCode: codes.get(x.sn)! })),
          { ...(b.profile !== undefined ? { profile: b.profile } : {}), ...(b.speed !== undefined ? { speed: b.speed } : {}) },
        );
      });
      adding = run.catch(() => undefined);
      sendOk(res, { data: { headsets: await run } });
    },
    "DELETE dev/simulator/headsets": async (req: IncomingMessage, res: ServerResponse) => {
      const { claims, control: c } = await control(req);
      const q = query(req, RemoveHeadsetQuerySchema);
      await knownAsync("query.deviceSn", () => ownHeadset(ctx, claims.organisationId, q.deviceSn));
      sendOk(res, { data: known("query.deviceSn", () => c.remove(q.deviceSn)) });
    },
    "PATCH dev/simulator/headsets": async (req: IncomingMessage, res: ServerResponse) => {
      const { claims, control: c } = await control(req);
      const b = await body(req, HeadsetSettingsBodySchema);
      const problem = settingsBodyProblem(b);
      if (problem) throw new Failure("validation_error", `${problem.field}: ${problem.message}`, problem.field);
      const settings = { ...(b.profile !== undefined ? { profile: b.profile } : {}), ...(b.speed !== undefined ? { speed: b.speed } : {}) };
      if (b.deviceSn !== undefined) {
        const sn = b.deviceSn;
        await knownAsync("body.deviceSn", () => ownHeadset(ctx, claims.organisationId, sn));
        sendOk(res, { data: { headsets: known("body.deviceSn", () => c.configure({ deviceSn: sn }, settings)) } });
        return;
      }
      // "all": every running headset of the caller's organisation, one by one.
      const own = await ownSerials(ctx, claims.organisationId);
      const mine = c.list().filter((h) => own.has(h.deviceSn));
      sendOk(res, { data: { headsets: mine.flatMap((h) => c.configure({ deviceSn: h.deviceSn }, settings)) } });
    },
    "POST dev/simulator/faults": async (req: IncomingMessage, res: ServerResponse) => {
      const { claims, control: c } = await control(req);
      const b = await body(req, FaultBodySchema);
      await knownAsync("body.deviceSn", () => ownHeadset(ctx, claims.organisationId, b.deviceSn));
      const done = known("body.deviceSn", () => c.fault(b.deviceSn, b.fault, b.seconds));
      sendOk(res, { data: { deviceSn: b.deviceSn, fault: b.fault, seconds: done.seconds } });
    },
  };
};
