import { expect, it } from "vitest";
import type { AuditFilter } from "../../../core/model/audit.ts";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import { call, login, ok } from "../harness.ts";
import type { ServerRef } from "./accounts.ts";

// Issue 15 §6: the audit trail records who read and changed what, from where, also failed logins and exports; the
// application cannot change or remove a row; only managers read it, each their own organisation's.

const none: AuditFilter = { from: null, to: null, userId: null, patientId: null, action: null };

export const auditCases = (server: ServerRef) => {
  it("reads of patient data, failed logins and exports are in the trail with who, when, from where and on which patient", async () => {
    const base = server().url;
    const user = await login(base, "user");
    const patient = (await ok(base, "patient.all", {}, user))[0]!;
    await ok(base, "patient.get", { query: { id: patient.id } }, user);
    await ok(base, "perimetry.all", { query: { patientId: patient.id } }, user);
    await ok(
      base,
      "perimetry.page",
      { body: { filter: { from: null, to: null, pattern: null, eye: null }, after: null, quantity: 10 } },
      user,
    );
    expect((await call(base, "login", { body: { username: "user", password: "Not-The-Pass-1" } })).status).toBe(401);
    const manager = await login(base, "manager");
    const userId = (await ok(base, "user.all", {}, manager)).find((u) => u.username === "user")!.id;
    const reads = await ok(base, "audit.search", { body: { filter: { ...none, patientId: patient.id }, page: 0, quantity: 50 } }, manager);
    const actions = reads.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["patient.get", "perimetry.all"]));
    const read = reads.entries.find((e) => e.action === "patient.get")!;
    expect(read).toMatchObject({
      actorKind: "user",
      actorId: userId,
      actorName: "user",
      address: "127.0.0.1",
      outcome: "success",
      patientId: patient.id,
      recordType: "patient",
      recordId: patient.id,
    });
    expect(Date.now() - Date.parse(read.at)).toBeLessThan(60_000 * 60);
    const exports = await ok(
      base,
      "audit.search",
      { body: { filter: { ...none, action: "perimetry.page", userId }, page: 0, quantity: 5 } },
      manager,
    );
    expect(exports.entries[0]).toMatchObject({ action: "perimetry.page", actorName: "user", outcome: "success" });
    const failed = await ok(base, "audit.search", { body: { filter: { ...none, action: "login" }, page: 0, quantity: 50 } }, manager);
    expect(failed.entries.find((e) => e.outcome === "invalid_credentials" && e.actorName === "user")).toMatchObject({
      actorId: userId,
      address: "127.0.0.1",
    });
  });

  it("list reads and an organisation-wide export leave a trace per patient: filtering the trail by a patient shows them", async () => {
    const base = server().url;
    const user = await login(base, "user");
    const manager = await login(base, "manager");
    const userId = (await ok(base, "user.all", {}, manager)).find((u) => u.username === "user")!.id;
    // A patient found by searching, and one whose results come on the export's first page (as `isopter export` reads).
    const listed = await ok(base, "patient.all", {}, user);
    const searched = (
      await ok(base, "patient.search", { body: { filter: { name: listed[1]!.name, birthdate: null }, page: 0, quantity: 20 } }, user)
    ).entries;
    expect(searched.map((p) => p.id)).toContain(listed[1]!.id);
    const page = await ok(
      base,
      "perimetry.page",
      { body: { filter: { from: null, to: null, pattern: null, eye: null }, after: null, quantity: 50 } },
      user,
    );
    const exported = page.patients.map((p) => p.id);
    expect(exported.length).toBeGreaterThan(0);
    const trailOf = async (patientId: string, action: string) =>
      (await ok(base, "audit.search", { body: { filter: { ...none, patientId, action }, page: 0, quantity: 50 } }, manager)).entries;
    for (const [patientId, action] of [
      [listed[0]!.id, "patient.all"],
      [listed[listed.length - 1]!.id, "patient.all"],
      [listed[1]!.id, "patient.search"],
      [exported[0]!, "perimetry.page"],
      [exported[exported.length - 1]!, "perimetry.page"],
    ] as const)
      expect((await trailOf(patientId, action))[0], `${action} of ${patientId}`).toMatchObject({
        actorId: userId,
        actorName: "user",
        address: "127.0.0.1",
        outcome: "success",
        patientId,
        recordType: "patient",
        recordId: patientId,
      });
    // A patient the export did not carry has no export event from it; the call itself is one event without a patient.
    const notExported = listed.find((p) => !exported.includes(p.id));
    expect(notExported).toBeDefined();
    expect(await trailOf(notExported!.id, "perimetry.page")).toEqual([]);
    const calls = await ok(
      base,
      "audit.search",
      { body: { filter: { ...none, userId, action: "perimetry.page" }, page: 0, quantity: 500 } },
      manager,
    );
    expect(calls.entries.filter((e) => e.patientId === null).length).toBeGreaterThan(0);
    // The lanes (device/all) carry the patients queued on them: one queued now leaves a device.all trace on its patient.
    const laned = listed[2]!;
    const deviceSn = (await ok(base, "device.all", {}, user))[0]!.deviceSn;
    await ok(
      base,
      "perimetry.register",
      {
        body: measurementConfigWith({
          patientId: laned.id,
          deviceSn,
          displayName: "Audit lane",
          eye: Eye.Left,
          pattern: Pattern.P24_2,
          strategy: Strategy.SORS,
        }),
      },
      manager,
    );
    const lanes = await ok(base, "device.all", {}, user);
    expect((await trailOf(laned.id, "device.all"))[0]).toMatchObject({ actorId: userId, patientId: laned.id, recordType: "patient" });
    const onLanes = new Set(lanes.flatMap((d) => [...d.perimetries, ...(d.appointments ?? [])].map((x) => x.patientId)));
    const offLanes = listed.find((p) => !onLanes.has(p.id));
    expect(offLanes).toBeDefined();
    expect(await trailOf(offLanes!.id, "device.all")).toEqual([]);
    // Bounded: the same list read again at once adds the call's event, not another event per patient.
    const before = (await trailOf(listed[0]!.id, "patient.all")).length;
    await ok(base, "patient.all", {}, user);
    expect((await trailOf(listed[0]!.id, "patient.all")).length).toBe(before);
  });

  it("the trail is append-only for the application: updates, deletes and truncation are refused by the database", async () => {
    const db = server().db;
    await server().ctx.audit.flush();
    const count = async () => Number((await db.query<{ n: number }>("select count(*) as n from audit_events"))[0]!.n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(db.query("update audit_events set actor_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(db.query("delete from audit_events")).rejects.toThrow(/append-only/);
    await expect(db.query("truncate audit_events")).rejects.toThrow(/append-only/);
    expect(await count()).toBeGreaterThanOrEqual(before);
  });

  it("only managers read it, only their own organisation's; filters by user, date and action page through with a total", async () => {
    const base = server().url;
    const user = await login(base, "user");
    expect((await call(base, "audit.search", { body: { filter: none, page: 0, quantity: 10 } }, user)).status).toBe(403);
    const other = await login(base, "appt.manager");
    const theirs = await ok(base, "audit.search", { body: { filter: none, page: 0, quantity: 500 } }, other);
    expect(theirs.entries.every((e) => e.actorName?.startsWith("appt.") || e.actorName?.startsWith("VR-A") || e.actorName === null)).toBe(
      true,
    );
    const manager = await login(base, "manager");
    const today = new Date().toISOString().slice(0, 10);
    // Logins only: the searches themselves are audited too, and would shift the pages in between.
    const logins = { ...none, action: "login", from: today, to: today };
    const first = await ok(base, "audit.search", { body: { filter: logins, page: 0, quantity: 3 } }, manager);
    const second = await ok(base, "audit.search", { body: { filter: logins, page: 1, quantity: 3 } }, manager);
    expect(first.total).toBeGreaterThan(3);
    expect(first.entries).toHaveLength(3);
    expect(first.entries.every((e) => e.action === "login")).toBe(true);
    expect(second.entries[0]!.id).toBeLessThan(first.entries[2]!.id);
    const yesterday = new Date(Date.now() - 86_400_000 * 400).toISOString().slice(0, 10);
    expect(
      (await ok(base, "audit.search", { body: { filter: { ...none, from: yesterday, to: yesterday }, page: 0, quantity: 3 } }, manager))
        .total,
    ).toBe(0);
  });
  it("headsets are actors too: an admitted headset's hello is in its organisation's trail, by serial and address", async () => {
    const manager = await login(server().url, "manager");
    // The virtual headsets pair at start (a one-time code exchanged for a credential): device.pair, later device.hello.
    const hellos = await ok(server().url, "audit.search", { body: { filter: none, page: 0, quantity: 500 } }, manager);
    expect(hellos.entries.find((e) => e.actorName === "VR-0001" && e.action.startsWith("device."))).toMatchObject({
      actorKind: "headset",
      actorId: "VR-0001",
      address: "127.0.0.1",
      outcome: "success",
    });
    expect(hellos.entries.some((e) => e.actorName === "VR-A001")).toBe(false); // the other organisation's headset
  });
};
