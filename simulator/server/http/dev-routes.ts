import { Schema } from "effect";
import { commonErrors, endpoint } from "../../../core/model/contract/index.ts";
import { Role } from "../../../core/model/enums.ts";
import type { SpecHandlers } from "./handler.ts";
import { claimsOf } from "./handler.ts";

// Calls outside the seeds' contract (our design), under /api/dev/ and for admins only, mounted through the router
// like every contract call (only in development mode, server.ts):
//  GET   /api/dev/outbox[?to=email]   the e-mails the server "sent" (reset links, invitations), newest first
//  PATCH /api/dev/organisation        {multiTests: boolean}: switch the organisation's multi-tests (appointments) plugin
// The contract has no call for either; they would move to core/model/contract if the web app or CLI needed them.
// The simulator's control calls (simulator-routes.ts) are mounted beside them.

const dev = {
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  roles: [Role.Admin],
  carriesAccessToken: false,
  source: "our design",
} as const;

export const OutboxMailSchema = Schema.Struct({
  id: Schema.Finite,
  to: Schema.String,
  subject: Schema.String,
  body: Schema.String,
  link: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
});

export const devEndpoints = {
  outbox: endpoint({
    name: "dev.outbox",
    method: "GET",
    path: "dev/outbox",
    query: Schema.Struct({ to: Schema.optionalKey(Schema.String) }),
    response: Schema.Array(OutboxMailSchema),
    ...dev,
    ourDesign: "the e-mails the server sent to the caller's organisation (to one address with ?to=), newest first, at most 200",
  }),
  organisation: endpoint({
    name: "dev.organisation",
    method: "PATCH",
    path: "dev/organisation",
    body: Schema.Struct({ multiTests: Schema.Boolean }),
    response: Schema.Struct({ multiTests: Schema.Boolean }),
    ...dev,
    ourDesign: "switches the organisation's multi-tests (appointments) plugin",
  }),
} as const;

export const devHandlers: SpecHandlers<typeof devEndpoints> = {
  "dev.outbox": async (call) => {
    const rows = await call.ctx.db.query<{
      id: string | number;
      to: string;
      subject: string;
      body: string;
      link: string | null;
      createdAt: string;
    }>(
      `select id, to_email as "to", subject, body, link, created_at as "createdAt" from outbox
       where organisation_id = $1 and ($2::text is null or lower(to_email) = lower($2)) order by id desc limit 200`,
      [claimsOf(call).organisationId, call.query.to ?? null],
    );
    return { data: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  },
  "dev.organisation": async (call) => {
    const { multiTests } = call.body;
    await call.ctx.db.transaction((tx) =>
      tx.query("update organisations set multi_tests = $2 where id = $1", [claimsOf(call).organisationId, multiTests]),
    );
    return { data: { multiTests } };
  },
};
