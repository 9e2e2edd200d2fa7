import { describe, expect, it } from "vitest";
import { createVirtualClock } from "../../adapters/clock/virtual-clock.ts";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { CacheKey, createClient, type ClientEvents } from "../../core/client/index.ts";
import { isApiError } from "../../core/model/contract/index.ts";
import { Eye, TestType } from "../../core/model/enums.ts";
import type { Template, TemplateFields } from "../../core/model/template.ts";
import type { User } from "../../core/model/user.ts";
import { StorageKeys } from "../../core/ports.ts";
import { measurement, patient } from "./fixtures.ts";
import { fail, fakeApi, settle, fakeSocket, type FakeApi } from "./fakes.ts";

// The templates page, the users page and the bin call one core/client command each; the command reads the list the
// screen shows again, so no screen chooses between calls or chains a refetch (issue 22 §4).

function setup(api: FakeApi) {
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, "tok");
  const client = createClient({ api, socket: fakeSocket(), storage, clock: createVirtualClock() }, { variant: "measurements" });
  const notices: ClientEvents["notice"][] = [];
  client.events.on("notice", (n) => notices.push(n));
  return { client, api, notices };
}

const endpoints = (api: FakeApi) => api.calls.map((c) => c.endpoint);
const fields: TemplateFields = { name: "Glaucoma follow-up", tests: [{ type: TestType.Amsler, eye: Eye.Both, config: null }] };
const template = (id: string, name = fields.name): Template => ({
  id,
  ...fields,
  name,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});
const user = (id: string, role: User["role"] = "user"): User => ({
  id,
  email: `${id}@clinic.test`,
  username: id,
  role,
  status: "active",
  createdAt: "2026-01-01T00:00:00.000Z",
});

describe("templates: save, copy, delete, each then the list read again", () => {
  it("a template without id is created, one with an id updated; the list is read again after each", async () => {
    const { client, api } = setup(
      fakeApi({ "template.all": () => [template("t1")], "template.create": () => template("t2"), "template.update": () => template("t1") }),
    );
    await client.cache.fetch(CacheKey.Templates, {});
    await client.templates.save(null, fields);
    await settle();
    await client.templates.save("t1", { ...fields, name: "Renamed" });
    await settle();
    expect(endpoints(api)).toEqual(["template.all", "template.create", "template.all", "template.update", "template.all"]);
    expect(api.calls[1]!.input).toEqual({ body: fields });
    expect(api.calls[3]!.input).toEqual({ query: { id: "t1" }, body: { ...fields, name: "Renamed" } });
  });

  it("a copy resolves with the server's copy (its name is the server's), and the list shows it", async () => {
    let list = [template("t1")];
    const { client, api } = setup(
      fakeApi({
        "template.all": () => list,
        "template.copy": ({ query }) => {
          const copy = template("t2", `${fields.name} (copy)`);
          list = [...list, copy];
          expect(query).toEqual({ id: "t1" });
          return copy;
        },
      }),
    );
    await client.cache.fetch(CacheKey.Templates, {});
    expect((await client.templates.copy("t1")).name).toBe("Glaucoma follow-up (copy)");
    await settle();
    expect(client.cache.get(CacheKey.Templates, {})!.data!.map((t) => t.id)).toEqual(["t1", "t2"]);
  });

  it("a refused save or delete rejects with the ApiError and reads nothing again", async () => {
    const { client, api } = setup(fakeApi({ "template.update": fail(404, "not_found"), "template.delete": fail(500, "internal_error") }));
    const refused = await client.templates.save("t9", fields).catch((e: unknown) => e);
    expect(isApiError(refused) && refused.isType("not_found")).toBe(true);
    await expect(client.templates.remove("t9")).rejects.toSatisfy(isApiError);
    await settle();
    expect(endpoints(api)).toEqual(["template.update", "template.delete"]);
  });

  it("a delete reads the list again", async () => {
    const { client, api } = setup(fakeApi({ "template.all": () => [], "template.delete": () => ({}) }));
    await client.cache.fetch(CacheKey.Templates, {});
    await client.templates.remove("t1");
    await settle();
    expect(endpoints(api)).toEqual(["template.all", "template.delete", "template.all"]);
    expect(api.calls[1]!.input).toEqual({ query: { id: "t1" } });
  });
});

describe("users: 'Managers invite, re-role and delete organisation users' (accounts seed §1, §6)", () => {
  it("an invitation sends the addresses with one role, resolves with who was already there, and reads the accounts again", async () => {
    const answer = { invited: ["a@clinic.test"], alreadyInvited: ["b@clinic.test"], alreadyRegistered: [] };
    const { client, api } = setup(fakeApi({ "user.all": () => [user("u1", "manager")], "user.invite": () => answer }));
    await client.cache.fetch(CacheKey.Users, {});
    expect(await client.users.invite(["a@clinic.test", "b@clinic.test"], "user")).toEqual(answer);
    await settle();
    expect(endpoints(api)).toEqual(["user.all", "user.invite", "user.all"]);
    expect(api.calls[1]!.input).toEqual({ body: { emails: ["a@clinic.test", "b@clinic.test"], role: "user" } });
  });

  it("a role change and a delete each read the accounts again; the list shows the server's answer", async () => {
    let list = [user("u1", "manager"), user("u2")];
    const { client, api } = setup(
      fakeApi({
        "user.all": () => list,
        "user.update": ({ query, body }) => {
          list = list.map((u) => (u.id === query.id ? { ...u, role: body.role } : u));
          return list.find((u) => u.id === query.id);
        },
        "user.delete": ({ query }) => {
          list = list.filter((u) => u.id !== query.id);
          return {};
        },
      }),
    );
    await client.cache.fetch(CacheKey.Users, {});
    await client.users.changeRole("u2", "manager");
    await settle();
    expect(client.cache.get(CacheKey.Users, {})!.data!.map((u) => u.role)).toEqual(["manager", "manager"]);
    await client.users.remove("u2");
    await settle();
    expect(client.cache.get(CacheKey.Users, {})!.data!.map((u) => u.id)).toEqual(["u1"]);
    expect(endpoints(api)).toEqual(["user.all", "user.update", "user.all", "user.delete", "user.all"]);
  });

  it("a refusal (e.g. all already invited) rejects with the ApiError and reads nothing again", async () => {
    const { client, api } = setup(fakeApi({ "user.invite": fail(409, "already_invited") }));
    const refused = await client.users.invite(["b@clinic.test"], "user").catch((e: unknown) => e);
    expect(isApiError(refused) && refused.isType("already_invited")).toBe(true);
    await settle();
    expect(endpoints(api)).toEqual(["user.invite"]);
  });
});

describe("the bin through the lifecycle commands ('Each row has restore and permanent-delete'; 'Restoring refetches')", () => {
  it("a restore from the bin reads the bin and the lists the item returns to again; notices: false leaves the words to the bin", async () => {
    let trashed = [measurement("m1", { trashedAt: "2026-01-02T00:00:00.000Z" })];
    const { client, api, notices } = setup(
      fakeApi({
        "perimetry.allTrashed": () => trashed,
        "perimetry.all": () => [],
        "perimetry.restore": () => {
          trashed = [];
          return null;
        },
      }),
    );
    await client.cache.fetch(CacheKey.TrashedMeasurements, {});
    await client.cache.fetch(CacheKey.Measurements, { patientId: "p1" });
    expect(await client.lifecycle("measurement", "restore", "m1", { notices: false })).toBe(true);
    expect(client.cache.get(CacheKey.TrashedMeasurements, {})!.data).toEqual([]);
    expect(endpoints(api).slice(2).sort()).toEqual(["perimetry.all", "perimetry.allTrashed", "perimetry.restore"]);
    expect(notices).toEqual([]);
  });

  it("a delete for good reads the bin it leaves again", async () => {
    let trashed = [patient("p1", { trashedAt: "2026-01-02T00:00:00.000Z" })];
    const { client, api } = setup(
      fakeApi({
        "patient.allTrashed": () => trashed,
        "patient.delete": () => {
          trashed = [];
          return {};
        },
      }),
    );
    await client.cache.fetch(CacheKey.TrashedPatients, {});
    expect(await client.lifecycle("patient", "delete", "p1", { notices: false })).toBe(true);
    expect(endpoints(api)).toEqual(["patient.allTrashed", "patient.delete", "patient.allTrashed"]);
    expect(client.cache.get(CacheKey.TrashedPatients, {})!.data).toEqual([]);
  });

  it("a failure resolves false; with notices: false the bin says it, without the catalogue's notice too", async () => {
    const { client, notices } = setup(fakeApi({ "appointment.delete": fail(500, "internal_error") }));
    expect(await client.lifecycle("appointment", "delete", "a1", { notices: false })).toBe(false);
    expect(notices).toEqual([]);
    expect(await client.lifecycle("appointment", "delete", "a1")).toBe(false);
    expect(notices).toHaveLength(1);
  });
});
