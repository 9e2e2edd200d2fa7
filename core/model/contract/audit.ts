import { Schema } from "effect";
import { AUDIT_PAGE_MAX, AuditEntrySchema, AuditFilterSchema } from "../audit.ts";
import { commonErrors, endpoint } from "./endpoint.ts";

// The audit trail for managers (issue 15 §6; our design): newest first, filtered, in numbered pages.

export const AuditSearchBodySchema = Schema.Struct({
  filter: AuditFilterSchema,
  page: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  quantity: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: AUDIT_PAGE_MAX })),
});
export type AuditSearchBody = typeof AuditSearchBodySchema.Type;

export const AuditPageSchema = Schema.Struct({ entries: Schema.Array(AuditEntrySchema), total: Schema.Number });
export type AuditPage = typeof AuditPageSchema.Type;

export const auditSearch = endpoint({
  name: "audit.search",
  method: "POST",
  path: "audit/search",
  body: AuditSearchBodySchema,
  response: AuditPageSchema,
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the organisation's audit trail, newest first, for managers; filters by user, patient, action and UTC days",
});
