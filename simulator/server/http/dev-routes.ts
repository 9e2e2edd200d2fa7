import type { IncomingMessage, ServerResponse } from "node:http";
import { Result, Schema } from "effect";
import { decodeJson } from "../../../core/model/decode.ts";
import { Role } from "../../../core/model/enums.ts";
import type { ServerContext } from "../context.ts";
import type { HeadsetControl } from "../../control/port.ts";
import { sendFailure, sendOk } from "./envelope.ts";
import { Failure, refusedToken } from "./failure.ts";
import { readBodyText } from "./request-body.ts";
import { simulatorRoutes } from "../../control/http-routes.ts";

// Routes outside the seeds' contract (our design), all under /api/dev/ and for admins only:
//  GET   /api/dev/outbox[?to=email]   the e-mails the server "sent" (reset links, invitations), newest first
//  PATCH /api/dev/organisation        {multiTests: boolean}: switch the organisation's multi-tests (appointments) plugin
// The contract has no call for either; the lead should add them to core/model/contract if the web app or CLI needs them.
// With `simulator` (the headsets simulator/start.ts runs beside this server), also the simulator's control calls
// (adapters/http/simulator-control.ts, simulator/control/http-routes.ts), for admins and managers.

const admin = async (ctx: ServerContext, req: IncomingMessage) => {
  const match = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? "");
  if (!match?.[1]) throw new Failure("unauthorized", "A bearer token is required");
  const check = await ctx.authenticate(match[1]);
  if (!check.ok) throw refusedToken(check);
  if (check.claims.role !== Role.Admin) throw new Failure("forbidden", "Admins only");
  return check.claims;
};


const OrganisationSettings = Schema.Struct({ multiTests: Schema.Boolean });

export const devRoutes = (ctx: ServerContext, simulator?: HeadsetControl) => ({
  ...simulatorRoutes(ctx, simulator),
  "GET dev/outbox": async (req: IncomingMessage, res: ServerResponse) => {
    const claims = await admin(ctx, req);
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    const rows = await ctx.db.query(
      `select id, to_email as "to", subject, body, link, created_at as "createdAt" from outbox
       where organisation_id = $1 and ($2::text is null or lower(to_email) = lower($2)) order by id desc limit 200`,
      [claims.organisationId, to],
    );
    sendOk(res, { data: rows.map((r) => ({ ...r, id: Number(r.id) })) });
  },
  "PATCH dev/organisation": async (req: IncomingMessage, res: ServerResponse) => {
    const claims = await admin(ctx, req);
    const body = decodeJson(OrganisationSettings, await readBodyText(req));
    if (Result.isFailure(body)) return sendFailure(res, "validation_error", body.failure.message, `body${body.failure.field ? "." + body.failure.field : ""}`);
    await ctx.db.transaction((tx) => tx.query("update organisations set multi_tests = $2 where id = $1", [claims.organisationId, body.success.multiTests]));
    sendOk(res, { data: { multiTests: body.success.multiTests } });
  },
});
