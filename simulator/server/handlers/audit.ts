import { Role } from "../../../core/model/enums.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { forbidden } from "../http/failure.ts";

// audit/search: the organisation's audit trail for managers (issue 15 §6).
export const auditHandlers: SomeHandlers<"audit.search"> = {
  "audit.search": async (call) => {
    const claims = claimsOf(call);
    if (claims.role !== Role.Manager) throw forbidden("Only managers read the audit trail");
    return { data: await call.ctx.audit.search(claims.organisationId, call.body.filter, call.body.page, call.body.quantity) };
  },
};
