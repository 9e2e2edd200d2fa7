import { Result } from "effect";
import { decode, type Decodable } from "../../../../core/model/decode.ts";
import {
  AeTitleSchema,
  DicomHostSchema,
  DicomPortSchema,
  LocalProtocolCodeSchema,
  WorklistSettingsSchema,
  type DicomNode,
  type PacsSettings,
  type WorklistSettings,
} from "../../../../core/model/dicom-network.ts";
import { Pattern, Strategy } from "../../../../core/model/enums.ts";
import { patternOptions } from "../../../../core/rules/pattern-options.ts";

// The "DICOM network" section's forms (issue 29 §3): what the inputs hold (text as typed), the settings they make, and
// which field is wrong. Every check is core/model's schema (the one the server decodes the call with), so a field the
// form passes the server takes; the words are the web's own, one message per kind of field (field-messages.ts).

/** A peer's address and the association's AE titles, as typed. */
export interface NodeForm {
  readonly host: string;
  readonly port: string;
  /** The peer's AE title. */
  readonly calledAeTitle: string;
  /** Ours: the station's. */
  readonly callingAeTitle: string;
}

/** A local protocol code of the table; `key` tells the rows apart while they are edited. */
export interface CodeForm {
  readonly key: number;
  readonly scheme: string;
  readonly value: string;
  readonly pattern: Pattern;
  readonly strategy: Strategy;
}

export interface WorklistForm {
  /** A worklist provider is set (off: none). */
  readonly on: boolean;
  readonly provider: NodeForm;
  /** Query periodically. */
  readonly enabled: boolean;
  readonly intervalMinutes: string;
  /** "": no headset (steps are matched and listed, nothing queued). */
  readonly deviceSn: string;
  readonly modality: string;
  readonly codes: readonly CodeForm[];
}

export interface PacsForm {
  /** A PACS is set (off: none). */
  readonly on: boolean;
  readonly node: NodeForm;
  readonly retrieve: "get" | "move";
  /** Isopter's storage SCP's port, for C-MOVE only. */
  readonly storePort: string;
}

/** The kinds of field, each with its own message (field-messages.ts). */
export type FieldKind = "host" | "port" | "aeTitle" | "intervalMinutes" | "modality" | "codeText" | "storePort" | "deviceSn";

/** A field of one card: "host", "calledAeTitle", ... or a code's cell, `codes.<key>.scheme`. */
export type FieldId = string;

/** The fields that are wrong, in the order the card shows them, with the kind of each. */
export type FieldErrors = ReadonlyArray<readonly [FieldId, FieldKind]>;

export const DEFAULT_PORT = "104";
export const DEFAULT_STORE_PORT = "11112";
export const DEFAULT_MODALITY = "OPV";
export const DEFAULT_INTERVAL = "15";
export const DEFAULT_STATION_AE_TITLE = "ISOPTER";

let lastKey = 0;
const nextKey = () => ++lastKey;

const emptyNode: NodeForm = { host: "", port: DEFAULT_PORT, calledAeTitle: "", callingAeTitle: DEFAULT_STATION_AE_TITLE };
const nodeForm = (n: DicomNode): NodeForm => ({
  host: n.host,
  port: String(n.port),
  calledAeTitle: n.calledAeTitle,
  callingAeTitle: n.callingAeTitle,
});

export function worklistForm(settings: WorklistSettings | null): WorklistForm {
  if (!settings)
    return {
      on: false,
      provider: emptyNode,
      enabled: false,
      intervalMinutes: DEFAULT_INTERVAL,
      deviceSn: "",
      modality: DEFAULT_MODALITY,
      codes: [],
    };
  return {
    on: true,
    provider: nodeForm(settings.provider),
    enabled: settings.enabled,
    intervalMinutes: String(settings.intervalMinutes),
    deviceSn: settings.deviceSn ?? "",
    modality: settings.modality,
    codes: settings.localCodes.map((c) => ({ key: nextKey(), ...c })),
  };
}

export function pacsForm(settings: PacsSettings | null): PacsForm {
  if (!settings) return { on: false, node: emptyNode, retrieve: "get", storePort: DEFAULT_STORE_PORT };
  return {
    on: true,
    node: nodeForm(settings.node),
    retrieve: settings.retrieve,
    storePort: settings.storePort === null ? DEFAULT_STORE_PORT : String(settings.storePort),
  };
}

/** A new row of the codes table: 24-2 with the first strategy the measurement form offers for it. */
export const newCode = (): CodeForm => ({ key: nextKey(), scheme: "", value: "", pattern: Pattern.P24_2, strategy: Strategy.DS });

/** The strategies the measurement form offers for a pattern (a pair it does not offer is refused at query time). */
export const strategiesFor = (pattern: Pattern): readonly Strategy[] => patternOptions(pattern)?.strategies ?? [];

/** A code's pattern changed: its strategy stays when the form offers it for the new pattern, else the first offered. */
export function withPattern(code: CodeForm, pattern: Pattern): CodeForm {
  const offered = strategiesFor(pattern);
  return { ...code, pattern, strategy: offered.includes(code.strategy) ? code.strategy : (offered[0] ?? code.strategy) };
}

// ---- checks: the schemas' ----------------------------------------------------------------------------------------------

const decoded = <T>(schema: Decodable<T>, input: unknown): T | undefined => {
  const r = decode(schema, input);
  return Result.isSuccess(r) ? r.success : undefined;
};
/** Digits only, then the schema's range: "80a", "8.5" and "" are not ports. */
const integer = (text: string): number | undefined => (/^\s*\d{1,6}\s*$/.test(text) ? Number(text) : undefined);
const port = (text: string) => {
  const n = integer(text);
  return n === undefined ? undefined : decoded(DicomPortSchema, n);
};

interface Checked<T> {
  readonly value: T | undefined;
  readonly errors: FieldErrors;
}

function checkNode(form: NodeForm): Checked<DicomNode> {
  const host = decoded(DicomHostSchema, form.host.trim());
  const p = port(form.port);
  // Spaces at either end of an AE title are padding (PS3.5 AE): not part of it.
  const called = decoded(AeTitleSchema, form.calledAeTitle.trim());
  const calling = decoded(AeTitleSchema, form.callingAeTitle.trim());
  const errors: Array<[FieldId, FieldKind]> = [];
  if (host === undefined) errors.push(["host", "host"]);
  if (p === undefined) errors.push(["port", "port"]);
  if (called === undefined) errors.push(["calledAeTitle", "aeTitle"]);
  if (calling === undefined) errors.push(["callingAeTitle", "aeTitle"]);
  if (host === undefined || p === undefined || called === undefined || calling === undefined) return { value: undefined, errors };
  return { value: { host, port: p, calledAeTitle: called, callingAeTitle: calling }, errors };
}

/** The worklist settings the form makes (null: none), or the fields that are wrong. */
export function checkWorklist(form: WorklistForm): Checked<WorklistSettings | null> {
  if (!form.on) return { value: null, errors: [] };
  const node = checkNode(form.provider);
  const errors: Array<readonly [FieldId, FieldKind]> = [...node.errors];
  const fields = WorklistSettingsSchema.fields;
  const n = integer(form.intervalMinutes);
  const intervalMinutes = n === undefined ? undefined : decoded(fields.intervalMinutes, n);
  if (intervalMinutes === undefined) errors.push(["intervalMinutes", "intervalMinutes"]);
  const modality = decoded(fields.modality, form.modality.trim());
  if (modality === undefined) errors.push(["modality", "modality"]);
  const codeFields = LocalProtocolCodeSchema.fields;
  const localCodes = form.codes.map((c) => {
    const scheme = decoded(codeFields.scheme, c.scheme.trim());
    const value = decoded(codeFields.value, c.value.trim());
    if (scheme === undefined) errors.push([`codes.${c.key}.scheme`, "codeText"]);
    if (value === undefined) errors.push([`codes.${c.key}.value`, "codeText"]);
    return { scheme: scheme ?? "", value: value ?? "", pattern: c.pattern, strategy: c.strategy };
  });
  if (errors.length > 0 || node.value === undefined || intervalMinutes === undefined || modality === undefined)
    return { value: undefined, errors };
  const settings: WorklistSettings = {
    enabled: form.enabled,
    provider: node.value,
    intervalMinutes,
    deviceSn: form.deviceSn === "" ? null : form.deviceSn,
    modality,
    localCodes,
  };
  return { value: settings, errors: [] };
}

/** The PACS settings the form makes (null: none), or the fields that are wrong. */
export function checkPacs(form: PacsForm): Checked<PacsSettings | null> {
  if (!form.on) return { value: null, errors: [] };
  const node = checkNode(form.node);
  const errors: Array<readonly [FieldId, FieldKind]> = [...node.errors];
  const storePort = form.retrieve === "move" ? port(form.storePort) : null;
  if (storePort === undefined) errors.push(["storePort", "storePort"]);
  if (errors.length > 0 || node.value === undefined || storePort === undefined) return { value: undefined, errors };
  return { value: { node: node.value, retrieve: form.retrieve, storePort }, errors: [] };
}

/** Whether two forms make the same settings (a form that is off makes none, whatever its fields hold). */
export function sameWorklist(a: WorklistForm, b: WorklistForm): boolean {
  if (!a.on || !b.on) return a.on === b.on;
  const plain = (f: WorklistForm) => JSON.stringify({ ...f, codes: f.codes.map(({ key: _, ...c }) => c) });
  return plain(a) === plain(b);
}

export function samePacs(a: PacsForm, b: PacsForm): boolean {
  if (!a.on || !b.on) return a.on === b.on;
  // The store port matters only for C-MOVE.
  const plain = (f: PacsForm) => JSON.stringify({ ...f, storePort: f.retrieve === "move" ? f.storePort : "" });
  return plain(a) === plain(b);
}

/**
 * The card's field a server's validation names ("body.worklist.provider.calledAeTitle", "body.pacs.storePort",
 * "body.worklist.localCodes.2.value"), with its kind; undefined when it names none of them.
 */
export function fieldOfPath(
  path: string | undefined,
  peer: "worklist" | "pacs",
  codes: readonly CodeForm[] = [],
): readonly [FieldId, FieldKind] | undefined {
  if (!path) return undefined;
  const parts = path.replace(/^body\./, "").split(".");
  if (parts[0] !== peer) return undefined;
  const last = parts[parts.length - 1]!;
  if (parts[1] === "localCodes") {
    const code = codes[Number(parts[2])];
    return code && (last === "scheme" || last === "value") ? [`codes.${code.key}.${last}`, "codeText"] : undefined;
  }
  const kinds: Record<string, FieldKind> = {
    host: "host",
    port: "port",
    calledAeTitle: "aeTitle",
    callingAeTitle: "aeTitle",
    intervalMinutes: "intervalMinutes",
    modality: "modality",
    storePort: "storePort",
    deviceSn: "deviceSn",
  };
  const kind = kinds[last];
  return kind ? [last, kind] : undefined;
}
