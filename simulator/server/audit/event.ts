import type { AuditActorKind } from "../../../core/model/audit.ts";

// One event as the server records it (audit/calls.ts, the device socket), before the trail gives it its place in the chain.

export interface AuditEvent {
  readonly organisationId: string | null;
  readonly at: string;
  readonly actorKind: AuditActorKind;
  readonly actorId: string | null;
  readonly actorName: string | null;
  readonly address: string | null;
  readonly action: string;
  readonly outcome: string;
  readonly patientId?: string | null;
  readonly recordType?: string | null;
  readonly recordId?: string | null;
  /** What the trail did to store the event (values cut, a reduced form and why). */
  readonly note?: string | null;
}
