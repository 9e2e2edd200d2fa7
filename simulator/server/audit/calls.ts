import type { EndpointSpec } from "../../../core/model/contract/index.ts";
import type { TokenClaims } from "../auth/token.ts";
import type { ServerContext } from "../context.ts";
import { userByUsername } from "../store/users.ts";

// Which contract call is worth an audit event, and on which patient and record it acted. Every call is, reads of
// patient data included, but the two that only ask after the server or the token itself.

const unaudited = new Set(["version", "checkToken"]);

/** The kind of record a call's ?id= names, by the call's area. */
const recordTypes: Record<string, string> = {
  patient: "patient",
  perimetry: "measurement",
  device: "device",
  appointment: "appointment",
  examination: "examination",
  template: "template",
  user: "user",
};

const stringAt = (value: unknown, key: string): string | null => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === "string" ? v : null;
};

export interface AuditedCall {
  readonly spec: EndpointSpec;
  readonly claims: TokenClaims | undefined;
  readonly query: unknown;
  readonly body: unknown;
  /** The answer's data (success) or undefined. */
  readonly data: unknown;
  readonly outcome: string;
  readonly address: string;
  /** Login: the access token it answered (whose user logged in). */
  readonly accessToken?: string | undefined;
}

export const auditCall = async (ctx: ServerContext, c: AuditedCall): Promise<void> => {
  if (unaudited.has(c.spec.name)) return;
  const area = c.spec.name.split(".")[0]!;
  const id = stringAt(c.query, "id") ?? stringAt(c.query, "appointmentId");
  const patientId =
    stringAt(c.query, "patientId") ?? stringAt(c.body, "patientId") ?? (area === "patient" ? id : null) ?? stringAt(c.data, "patientId");
  let claims = c.claims?.kind === "access" ? c.claims : undefined;
  let actorName = claims?.username ?? null;
  let organisationId = c.claims?.organisationId ?? null;
  let actorId = claims?.sub ?? null;
  if (c.spec.name === "login") {
    // Who tried: the account the name belongs to (failed logins included), else just the name that was typed.
    const tried = stringAt(c.body, "username")?.trim() ?? null;
    const checked = c.accessToken ? ctx.signer.verify(c.accessToken, "access", ctx.now()) : undefined;
    if (checked?.ok) claims = checked.claims;
    const user = claims ? undefined : tried ? await userByUsername(ctx.db, tried) : undefined;
    organisationId = claims?.organisationId ?? user?.organisationId ?? null;
    actorId = claims?.sub ?? user?.id ?? null;
    actorName = claims?.username ?? tried;
  }
  ctx.audit.record({
    organisationId,
    at: new Date(ctx.now()).toISOString(),
    actorKind: actorId ? "user" : "anonymous",
    actorId,
    actorName,
    address: c.address,
    action: c.spec.name,
    outcome: c.outcome,
    patientId,
    recordType: id
      ? area === "perimetry" || area === "device" || area === "appointment"
        ? recordTypes[area]!
        : (recordTypes[area] ?? area)
      : null,
    recordId: id,
  });
};
