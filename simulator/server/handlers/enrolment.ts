import { Role } from "../../../core/model/enums.ts";
import type { TokenClaims } from "../auth/token.ts";
import { enrolHeadset, reenrolHeadset, revokeHeadset, type Actor } from "../device/enrolment.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { forbidden } from "../http/failure.ts";
import { enrolmentRows, enrolmentView } from "../store/enrolment.ts";

// Headset enrolment calls (issue 15, point 1; contract/devices.ts): managers list, enrol, enrol again and revoke the
// organisation's headsets. Renaming is device/update {alias}.

const manager = (claims: TokenClaims): Actor => {
  if (claims.role !== Role.Manager) throw forbidden("Only managers enrol and revoke headsets");
  return { organisationId: claims.organisationId, name: claims.username };
};

export const enrolmentHandlers: SomeHandlers<"device.enrolments" | "device.enrol" | "device.reenrol" | "device.revoke"> = {
  "device.enrolments": async (call) => {
    const actor = manager(claimsOf(call));
    return { data: (await enrolmentRows(call.ctx.db, actor.organisationId)).map(enrolmentView) };
  },
  "device.enrol": async (call) => ({ data: await enrolHeadset(call.ctx, manager(claimsOf(call)), call.body) }),
  "device.reenrol": async (call) => ({ data: await reenrolHeadset(call.ctx, manager(claimsOf(call)), call.query.id, call.body.secret) }),
  "device.revoke": async (call) => ({ data: await revokeHeadset(call.ctx, manager(claimsOf(call)), call.query.id) }),
};
