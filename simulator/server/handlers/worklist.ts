import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { queryWorklist } from "../worklist/queue.ts";

// worklist/query (issue 29): the organisation's worklist provider queried now (C-FIND for the station's scheduled
// steps of today) and each new step queued (worklist/queue.ts). No provider set: not_found naming it; settings that
// fail their checks: validation_error naming the field; a provider down or refusing: 503 unavailable with its line.
export const worklistHandlers: SomeHandlers<"worklist.query"> = {
  "worklist.query": async (call) => ({ data: await queryWorklist(call.ctx, claimsOf(call).organisationId, call.body.dryRun) }),
};
