import { Schema } from "effect";
import { PatternSchema, StrategySchema } from "./enums.ts";
import { DeviceSnSchema, IdSchema, IsoDateTimeSchema } from "./ids.ts";
import { ImportReportSchema } from "./import.ts";
import { EyeSchema } from "./enums.ts";

// The clinic's DICOM network (issue 29): the worklist provider its orders come from (Modality Worklist, C-FIND) and the
// PACS its priors come from (Query/Retrieve: C-FIND, then C-GET or C-MOVE to Isopter's own storage SCP). Checked here,
// before any association is opened: AE titles (PS3.5: AE, at most 16 characters of the default repertoire, no
// backslash or control character, not only spaces), host names or addresses, ports.

export const AeTitleSchema = Schema.String.check(
  Schema.isPattern(/^(?=.*[^ ])[\x20-\x5b\x5d-\x7e]{1,16}$/, {
    message: "an AE title is 1 to 16 characters (letters, digits, spaces and punctuation but backslash), not only spaces",
  }),
);
export const DicomHostSchema = Schema.String.check(
  Schema.isPattern(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/,
    {
      message: "a host name (letters, digits, dots and hyphens) or an IP address",
    },
  ),
);
export const DicomPortSchema = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 65535 }));

/** A peer and the AE titles of the association: the peer's (called) and ours (calling: the station's). */
export const DicomNodeSchema = Schema.Struct({
  host: DicomHostSchema,
  port: DicomPortSchema,
  calledAeTitle: AeTitleSchema,
  callingAeTitle: AeTitleSchema,
});
export type DicomNode = Schema.Schema.Type<typeof DicomNodeSchema>;

/** A clinic's own protocol code (what its RIS puts in the step's protocol code sequence) and the test it means. */
export const LocalProtocolCodeSchema = Schema.Struct({
  scheme: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)),
  value: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)),
  pattern: PatternSchema,
  strategy: StrategySchema,
});
export type LocalProtocolCode = Schema.Schema.Type<typeof LocalProtocolCodeSchema>;

export const WorklistSettingsSchema = Schema.Struct({
  /** Query periodically (else only on demand: `isopter worklist`, the settings' "Query now"). */
  enabled: Schema.Boolean,
  provider: DicomNodeSchema,
  /** Minutes between periodic queries. */
  intervalMinutes: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1440 })),
  /** The headset new steps are queued on; null: steps are matched and listed, not queued. */
  deviceSn: Schema.NullOr(DeviceSnSchema),
  /** The Modality the query asks for (OPV for perimetry). */
  modality: Schema.String.check(Schema.isPattern(/^[A-Z0-9 _]{1,16}$/)),
  /** Codes beside the standard's CID 4250/4251 that the clinic's RIS uses. */
  localCodes: Schema.Array(LocalProtocolCodeSchema),
});
export type WorklistSettings = Schema.Schema.Type<typeof WorklistSettingsSchema>;

export const PacsSettingsSchema = Schema.Struct({
  node: DicomNodeSchema,
  /** C-GET (the instances come back on the same association) or C-MOVE (to Isopter's storage SCP on `storePort`). */
  retrieve: Schema.Literals(["get", "move"]),
  /** Where Isopter's storage SCP listens for a C-MOVE (the PACS must know our calling AE title at this port). */
  storePort: Schema.NullOr(DicomPortSchema),
});
export type PacsSettings = Schema.Schema.Type<typeof PacsSettingsSchema>;

export const DicomSettingsSchema = Schema.Struct({
  worklist: Schema.NullOr(WorklistSettingsSchema),
  pacs: Schema.NullOr(PacsSettingsSchema),
});
export type DicomSettings = Schema.Schema.Type<typeof DicomSettingsSchema>;

export const WorklistStepSchema = Schema.Struct({
  /** The step as a reader names it: "step SPS-1 (accession A-77)". */
  item: Schema.String,
  action: Schema.Literals(["queued", "matched", "seen", "refused"]),
  reason: Schema.NullOr(Schema.String),
  patient: Schema.NullOr(
    Schema.Struct({ id: Schema.NullOr(IdSchema), name: Schema.String, uniqueId: Schema.String, created: Schema.Boolean }),
  ),
  /** The measurement (or appointment) queued for the step; null when none was. */
  queuedId: Schema.NullOr(IdSchema),
  eye: Schema.NullOr(EyeSchema),
  pattern: Schema.NullOr(PatternSchema),
  strategy: Schema.NullOr(StrategySchema),
  scheduledAt: Schema.NullOr(IsoDateTimeSchema),
});
export type WorklistStep = Schema.Schema.Type<typeof WorklistStepSchema>;

export const WorklistReportSchema = Schema.Struct({ dryRun: Schema.Boolean, steps: Schema.Array(WorklistStepSchema) });
export type WorklistReport = Schema.Schema.Type<typeof WorklistReportSchema>;

export const PacsFetchReportSchema = Schema.Struct({
  /** OPV instances the PACS listed for the patient. */
  found: Schema.Int,
  /** Instances retrieved and imported (as results/import reports them). */
  imported: ImportReportSchema,
});
export type PacsFetchReport = Schema.Schema.Type<typeof PacsFetchReportSchema>;

export const EchoReportSchema = Schema.Struct({ ok: Schema.Boolean, message: Schema.String });
export type EchoReport = Schema.Schema.Type<typeof EchoReportSchema>;
