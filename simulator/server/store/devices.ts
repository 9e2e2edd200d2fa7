import type { Device, DeviceBattery } from "../../../core/model/device.ts";
import type { ConnectionStatus, DeviceStatus } from "../../../core/model/enums.ts";
import type { Queryable, Row } from "../db/database.ts";
import { queueOf, queuesOf } from "./measurements.ts";
import { appointmentQueueOf, appointmentQueuesOf } from "./appointments.ts";

// Devices (headsets) of an organisation. `revision` counts queue changes: every change of a lane bumps it, and a
// drag-and-drop that sends an older one is refused with 409 device_revision_conflict.

/** What every reading of a device row has: who it is, and whether it is connected (enrolment.ts adds its secrets). */
export interface DeviceIdentity {
  readonly id: string;
  readonly organisationId: string;
  readonly deviceSn: string;
  readonly alias: string;
  readonly connection: ConnectionStatus;
  readonly lastSeen: string | null;
}

export interface DeviceRow extends DeviceIdentity {
  readonly status: DeviceStatus;
  readonly standaloneId: string | null;
  readonly revision: number;
  readonly battery: DeviceBattery;
}

const noBattery: DeviceBattery = { vr: { level: null, charging: false }, clicker: { level: null, charging: false } };

export const deviceIdentity = (r: Row): DeviceIdentity => ({
  id: r.id as string,
  organisationId: r.organisation_id as string,
  deviceSn: r.device_sn as string,
  alias: r.alias as string,
  connection: r.connection as ConnectionStatus,
  lastSeen: (r.last_seen as string | null) ?? null,
});

const toRow = (r: Row): DeviceRow => ({
  ...deviceIdentity(r),
  status: r.status as DeviceStatus,
  standaloneId: (r.standalone_id as string | null) ?? null,
  revision: r.revision as number,
  battery: { ...noBattery, ...(r.battery as Partial<DeviceBattery>) },
});

/**
 * The devices table's rows: an organisation's by serial, one of them by id, or any organisation's by serial (a headset
 * names itself in its hello). Each store reads them into its own shape (here the lane's, enrolment.ts its secrets).
 */
export const deviceTable = {
  all: (q: Queryable, org: string): Promise<Row[]> => q.query("select * from devices where organisation_id = $1 order by device_sn", [org]),
  byId: async (q: Queryable, org: string, id: string): Promise<Row | undefined> =>
    (await q.query("select * from devices where organisation_id = $1 and id = $2", [org, id]))[0],
  bySnAnywhere: async (q: Queryable, sn: string): Promise<Row | undefined> =>
    (await q.query("select * from devices where device_sn = $1", [sn]))[0],
};

/**
 * An organisation's devices by serial, read as one JSON text: PGlite decodes a result row field by field in JavaScript,
 * which for a thousand devices cost four times what PostgreSQL's json_agg and one JSON.parse do (device/all, issue 18).
 */
export const deviceRows = async (q: Queryable, org: string): Promise<DeviceRow[]> => {
  const rows = await q.query<{ devices: string | null }>(
    `select json_agg(d order by d."deviceSn")::text as devices from (
       select id, organisation_id as "organisationId", device_sn as "deviceSn", alias, connection, last_seen as "lastSeen",
         status, standalone_id as "standaloneId", revision, battery
       from devices where organisation_id = $1) d`,
    [org],
  );
  const stored: DeviceRow[] = JSON.parse(rows[0]?.devices ?? "[]");
  return stored.map((d) => ({ ...d, battery: { ...noBattery, ...d.battery } }));
};

export const deviceById = async (q: Queryable, org: string, id: string): Promise<DeviceRow | undefined> => {
  const row = await deviceTable.byId(q, org, id);
  return row && toRow(row);
};

export const deviceBySn = async (q: Queryable, org: string, sn: string): Promise<DeviceRow | undefined> => {
  const rows = await q.query("select * from devices where organisation_id = $1 and device_sn = $2", [org, sn]);
  return rows[0] ? toRow(rows[0]) : undefined;
};

/** Any organisation's device by serial (the device socket: the headset names itself). */
export const deviceBySnAnywhere = async (q: Queryable, sn: string): Promise<DeviceRow | undefined> => {
  const row = await deviceTable.bySnAnywhere(q, sn);
  return row && toRow(row);
};

/** Serials of devices whose row is locked for this transaction (queue changes serialise per device). */
export const lockDevices = async (q: Queryable, sns: ReadonlyArray<string>) => {
  if (sns.length) await q.query("select id from devices where device_sn = any($1::text[]) order by device_sn for update", [[...sns]]);
};

export const bumpRevision = async (q: Queryable, sn: string | null | undefined): Promise<void> => {
  if (sn) await q.query("update devices set revision = revision + 1 where device_sn = $1", [sn]);
};

/** The contract's device: the stored row with its two lanes. */
const toDevice = (row: DeviceRow, perimetries: Device["perimetries"], appointments: Device["appointments"]): Device => ({
  id: row.id,
  deviceSn: row.deviceSn,
  alias: row.alias,
  status: row.status,
  lastSeen: row.lastSeen,
  standaloneId: row.standaloneId,
  revision: row.revision,
  battery: row.battery,
  connection: row.connection,
  perimetries,
  appointments,
});

export const withQueues = async (q: Queryable, org: string, row: DeviceRow): Promise<Device> =>
  toDevice(row, await queueOf(q, org, row.deviceSn), await appointmentQueueOf(q, org, row.deviceSn));

/** Every device of the organisation with its lanes (device/all), in four queries whatever the number of devices; run it
 * inside db.snapshot so devices and lanes are one moment's state (a card moving between lanes shows once, never twice
 * or not at all). `overlay` adds what is held in memory (presence). */
export const devicesWithQueues = async (
  q: Queryable,
  org: string,
  overlay: (row: DeviceRow) => DeviceRow = (r) => r,
): Promise<Device[]> => {
  const rows = await deviceRows(q, org);
  const measurementLanes = await queuesOf(q, org);
  const appointmentLanes = await appointmentQueuesOf(q, org);
  return rows.map((r) => {
    const row = overlay(r);
    return toDevice(row, measurementLanes.get(row.deviceSn) ?? [], appointmentLanes.get(row.deviceSn) ?? []);
  });
};

export const insertDevice = async (q: Queryable, org: string, id: string, sn: string, alias: string, now: string) => {
  await q.query("insert into devices (id, organisation_id, device_sn, alias, created_at) values ($1, $2, $3, $4, $5)", [
    id,
    org,
    sn,
    alias,
    now,
  ]);
};

export const setAlias = async (q: Queryable, id: string, alias: string) => {
  await q.query("update devices set alias = $2 where id = $1", [id, alias]);
};

export const setStandaloneId = async (q: Queryable, sn: string, standaloneId: string | null) => {
  await q.query("update devices set standalone_id = $2 where device_sn = $1", [sn, standaloneId]);
};

export const recordLiveState = async (
  q: Queryable,
  sn: string,
  state: { status?: DeviceStatus; connection?: ConnectionStatus; battery?: DeviceBattery; lastSeen?: string },
) => {
  await q.query(
    `update devices set status = coalesce($2, status), connection = coalesce($3, connection), battery = coalesce($4::jsonb, battery),
       last_seen = coalesce($5, last_seen) where device_sn = $1`,
    [sn, state.status ?? null, state.connection ?? null, state.battery ? JSON.stringify(state.battery) : null, state.lastSeen ?? null],
  );
};

/** The data of a device update event (core/model/live-data.ts DeviceChangeData). */
export const deviceChange = (row: DeviceRow) => ({
  deviceSn: row.deviceSn,
  status: row.status,
  alias: row.alias,
  battery: row.battery,
  connection: row.connection,
  lastSeen: row.lastSeen,
  standaloneId: row.standaloneId,
  revision: row.revision,
});
