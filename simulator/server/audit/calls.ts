import type { EndpointSpec } from "../../../core/model/contract/index.ts";
import type { ImportReport } from "../../../core/model/import.ts";
import type { TokenClaims } from "../auth/token.ts";
import type { ServerContext } from "../context.ts";
import { userByUsername } from "../store/users.ts";

// Which contract call is worth an audit event, and on which patient and record it acted. Every call is, reads of
// patient data included, but the two that only ask after the server or the token itself.

const unaudited = new Set(["version", "checkToken"]);

/**
 * Reads that answer several patients' data (lists, the lanes, an export's pages). Besides the call's own event, each
 * patient whose data the answer carried gets an event of that action on that patient, so filtering the trail by a
 * patient shows every read and export of their data. Bounded: the same user reading the same patient through the
 * same call again within READ_REPEAT_MS adds nothing (the lanes and lists are read again and again while a screen is
 * open); the call's own event is still recorded every time.
 */
const listReads = new Set([
  "patient.all",
  "patient.allTrashed",
  "patient.search",
  "perimetry.page",
  "perimetry.recent",
  "perimetry.allTrashed",
  "appointment.all",
  "appointment.allTrashed",
  "device.all",
]);
export const READ_REPEAT_MS = 10 * 60_000;
/** Per trail: when each (organisation, user, action, patient) read was last recorded. */
const lastRecorded = new WeakMap<object, Map<string, number>>();

/** The patients an answer carries: a patient list's ids, or the patientId of its records (lanes, results, appointments). */
const patientsIn = (name: string, data: unknown): string[] => {
  const found = new Set<string>();
  const items = Array.isArray(data) ? data : (data as { entries?: unknown } | null)?.entries;
  if (name.startsWith("patient.") && Array.isArray(items)) {
    for (const p of items) {
      const id = stringAt(p, "id");
      if (id) found.add(id);
    }
    return [...found];
  }
  // Records and the lists inside them (a device's perimetries and appointments), not into results and configurations.
  const walk = (value: unknown, depth: number) => {
    if (depth > 3 || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    const id = stringAt(value, "patientId");
    if (id) found.add(id);
    for (const [k, v] of Object.entries(value)) if (k !== "result" && k !== "config" && typeof v === "object") walk(v, depth + 1);
  };
  walk(data, 0);
  return [...found];
};

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
  /** The patients the answer carries, when its data cannot say (pre-encoded pages). */
  readonly patientsRead?: readonly string[] | undefined;
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
    // A lookup that fails (the database away) leaves the event with the typed name: it is still recorded.
    const user = claims || !tried ? undefined : await userByUsername(ctx.db, tried).catch(() => undefined);
    organisationId = claims?.organisationId ?? user?.organisationId ?? null;
    actorId = claims?.sub ?? user?.id ?? null;
    actorName = claims?.username ?? tried;
  }
  const challenge = c.spec.name.startsWith("secondFactor.signIn") ? stringAt(c.body, "challenge") : null;
  if (challenge) {
    // The second step of a login (issue 33 item 2): the account its challenge stands for, refused codes included.
    const checked = ctx.signer.verify(challenge, "second-factor", ctx.now());
    if (checked.ok) ({ organisationId, sub: actorId, username: actorName } = checked.claims);
  }
  const who = {
    organisationId,
    at: new Date(ctx.now()).toISOString(),
    actorKind: actorId ? ("user" as const) : ("anonymous" as const),
    actorId,
    actorName,
    address: c.address,
    action: c.spec.name,
  };
  ctx.audit.record({
    ...who,
    outcome: c.outcome,
    patientId,
    recordType: id
      ? area === "perimetry" || area === "device" || area === "appointment"
        ? recordTypes[area]!
        : (recordTypes[area] ?? area)
      : null,
    recordId: id,
  });
  if (c.spec.name === "results.import" && c.outcome === "success") {
    // Each stored field an event of its own, on its patient and measurement (a dry run stores none).
    for (const file of (c.data as ImportReport).files)
      for (const i of file.items)
        if (i.action === "imported" && i.measurementId !== null && i.patient?.id)
          ctx.audit.record({ ...who, outcome: c.outcome, patientId: i.patient.id, recordType: "measurement", recordId: i.measurementId });
    return;
  }
  if (c.outcome !== "success" || !listReads.has(c.spec.name) || !organisationId) return;
  const read = c.patientsRead ?? patientsIn(c.spec.name, c.data);
  if (read.length === 0) return;
  let seen = lastRecorded.get(ctx.audit);
  if (!seen) lastRecorded.set(ctx.audit, (seen = new Map()));
  const now = ctx.now();
  if (seen.size > 100_000) for (const [k, t] of seen) if (now - t >= READ_REPEAT_MS) seen.delete(k);
  for (const id of read) {
    const key = `${organisationId}|${actorId}|${c.spec.name}|${id}`;
    const last = seen.get(key);
    if (last !== undefined && now - last < READ_REPEAT_MS && now >= last) continue;
    seen.set(key, now);
    ctx.audit.record({
      ...who,
      outcome: "success",
      patientId: id,
      recordType: "patient",
      recordId: id,
    });
  }
};
