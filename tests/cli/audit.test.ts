import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { balpIssues } from "./audit-balp.ts";
import { r4Issues } from "./fhir-validation.ts";
import { isopter, tempHome } from "./harness.ts";

// isopter audit --from --to --format ndjson|fhir against the in-process server (issue 15 §6).

let server: TestServer;
let home: string;
let patientId: string;
const env = () => ({ ISOPTER_HOME: home });
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer("pglite");
  const user = await login(server.url, "user");
  patientId = (await ok(server.url, "patient.all", {}, user))[0]!.id;
  await ok(server.url, "patient.get", { query: { id: patientId } }, user);
  home = tempHome();
  const run = await isopter(["login", "--server", server.url, "-u", "manager", "--password-stdin"], {
    env: env(),
    stdin: `${DEMO_PASSWORD}\n`,
  });
  expect(run.code, run.stderr).toBe(0);
}, 120_000);
afterAll(async () => server?.drop());

describe("isopter audit", () => {
  it("ndjson: one entry a line, oldest first, the user's read of the patient among them", async () => {
    const run = await isopter(["audit", "--from", today, "--to", today, "--format", "ndjson"], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const entries = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; action: string; actorName: string; patientId: string | null });
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => a - b));
    expect(entries.find((e) => e.action === "patient.get" && e.patientId === patientId)).toMatchObject({ actorName: "user" });
    expect(entries.some((e) => e.action === "login" && e.actorName === "manager")).toBe(true);
  });

  it("fhir: an R4 Bundle of AuditEvents after IHE BALP's patterns that medplum and the BALP profile checks accept, the patient as an entity", async () => {
    // A create, an update and a query on the patient besides the read (a note added to a result is not needed: the
    // patient's own calls cover create, read, update and query).
    // As the user (logging in as the manager would end the CLI's session: one session per user).
    const user = await login(server.url, "user");
    const p = await ok(server.url, "patient.get", { query: { id: patientId } }, user);
    const fields = { name: p.name, uniqueId: p.uniqueId, gender: p.gender, lang: p.lang, birthdate: p.birthdate };
    await ok(server.url, "patient.update", { query: { id: patientId }, body: fields }, user);
    await ok(server.url, "perimetry.all", { query: { patientId } }, user);
    const run = await isopter(["audit", "--from", today, "--to", today, "--format", "fhir", "--patient", patientId], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const bundle = JSON.parse(run.stdout);
    expect(bundle).toMatchObject({ resourceType: "Bundle", type: "collection" });
    const events = bundle.entry.map((e: { resource: any }) => e.resource);
    const byCall = (name: string) => events.find((r: any) => r.subtype.some((s: any) => s.code === name));
    expect(byCall("patient.get")).toMatchObject({
      meta: { profile: ["https://profiles.ihe.net/ITI/BALP/StructureDefinition/IHE.BasicAudit.PatientRead"] },
      type: { code: "rest" },
      subtype: [{ system: "http://hl7.org/fhir/restful-interaction", code: "read" }, { code: "patient.get" }],
      action: "R",
      outcome: "0",
      entity: [
        { what: { reference: `Patient/${patientId}` }, role: { code: "1" } },
        { what: { reference: `Patient/${patientId}` }, role: { code: "4" } },
      ],
    });
    expect(byCall("patient.get").agent).toMatchObject([
      { who: { display: "user" }, requestor: true, type: { coding: [{ code: "IRCP" }] } },
      { network: { address: "127.0.0.1" }, type: { coding: [{ code: "110152" }] } },
      { network: { address: server.url }, type: { coding: [{ code: "110153" }] } },
    ]);
    expect(byCall("patient.update")).toMatchObject({ action: "U", meta: { profile: [expect.stringMatching(/PatientUpdate$/)] } });
    expect(byCall("perimetry.all")).toMatchObject({ action: "E", meta: { profile: [expect.stringMatching(/PatientQuery$/)] } });
    expect(await r4Issues(bundle)).toEqual([]);
    expect(events.flatMap((e: any) => balpIssues(e).map((i) => `${e.id}: ${i}`))).toEqual([]);
  });

  it("the BALP checks are not blind: a read without its patient entity, a query without its query, a user on the network", async () => {
    const run = await isopter(["audit", "--from", today, "--to", today, "--format", "fhir", "--patient", patientId], { env: env() });
    const events = JSON.parse(run.stdout).entry.map((e: { resource: any }) => e.resource);
    const read = structuredClone(events.find((r: any) => r.subtype.some((s: any) => s.code === "patient.get")));
    read.entity = read.entity.slice(1);
    read.agent[0].network = { address: "127.0.0.1", type: "2" };
    expect(balpIssues(read)).toEqual([
      "agent[user]: users are not network devices (network 0..0)",
      "entity[patient]: 0, must be 1",
      "entity: min 2",
    ]);
    const query = structuredClone(events.find((r: any) => r.action === "E" && r.meta));
    query.entity = query.entity.filter((e: any) => e.role.code !== "24");
    expect(balpIssues(query)).toContain("entity[query]: 0, must be 1");
  });

  it("refuses a bad format (exit 2), and a user who is not a manager gets the server's refusal", async () => {
    expect((await isopter(["audit", "--format", "csv"], { env: env() })).code).toBe(2);
    const other = tempHome();
    const loggedIn = await isopter(["login", "--server", server.url, "-u", "user", "--password-stdin"], {
      env: { ISOPTER_HOME: other },
      stdin: `${DEMO_PASSWORD}\n`,
    });
    expect(loggedIn.code, loggedIn.stderr).toBe(0);
    const refused = await isopter(["audit"], { env: { ISOPTER_HOME: other } });
    expect([refused.code, refused.stderr], refused.stderr).toEqual([1, expect.stringMatching(/./)]);
  });
});
