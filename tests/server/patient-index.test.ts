import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PatientFields } from "../../core/model/patient.ts";
import type { Database } from "../../simulator/server/db/database.ts";
import { openDatabase } from "../../simulator/server/db/open.ts";
import { patientIndex, placeAmong, REMAINING_COUNTED_UP_TO, type PatientSearch } from "../../simulator/server/store/patient-index.ts";
import * as patients from "../../simulator/server/store/patients.ts";
import { testStorage, type Backend } from "./harness.ts";

// The patient search served from memory (issue 18) answers exactly what the database holds at the moment of the
// search (scheduling §10: search by name or patient ID, birthdate filter, pages in name order), whichever process
// wrote: two indexes stand for two server processes, each with its own connection (PostgreSQL) or on one PGlite.
// The oracle is patient.all's list (the database's name order) filtered by the rules.

const oracle = async (db: Database, org: string, s: PatientSearch) => {
  const text = s.name?.trim().toLowerCase() || null;
  const all = (await patients.listPatients(db, org, false)).filter(
    (p) => (text === null || `${p.name} ${p.uniqueId}`.toLowerCase().includes(text)) && (!s.birthdate || p.birthdate === s.birthdate),
  );
  const skipped = (s.page - 1) * s.quantity;
  const entries = all.slice(skipped, skipped + s.quantity);
  return { entries, remaining: Math.min(REMAINING_COUNTED_UP_TO, Math.max(0, all.length - skipped - entries.length)), page: s.page };
};

const names = ["Anna Schmidt", "anna weber", "Émile Dubois", "de Vries", "Zoë Li", "ANNA", "Li Wei", "Ånström", "b-1"];
const births = ["1950-03-03", "1971-02-03"];

type Op =
  | { kind: "register"; name: number; birth: number; via: number }
  | { kind: "rename"; which: number; name: number; via: number }
  | { kind: "trash" | "restore" | "delete"; which: number; via: number }
  | { kind: "search"; text: string | null; birth: number | null; page: number; quantity: number; via: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("register" as const), name: fc.nat(names.length - 1), birth: fc.nat(1), via: fc.nat(1) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("rename" as const), which: fc.nat(), name: fc.nat(names.length - 1), via: fc.nat(1) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom("trash" as const, "restore" as const, "delete" as const),
      which: fc.nat(),
      via: fc.nat(1),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("search" as const),
      text: fc.option(fc.constantFrom("anna", "AN", " li ", "b-", "ström", "e", "zz", "P-1", "", "a\u0000b", "t p"), { nil: null }),
      birth: fc.option(fc.nat(1), { nil: null }),
      page: fc.integer({ min: 1, max: 3 }),
      quantity: fc.integer({ min: 1, max: 4 }),
      via: fc.nat(1),
    }),
  },
);

const backends: Backend[] = ["pglite", ...(process.env.TEST_DATABASE_URL ? (["postgres"] as const) : [])];

describe.each(backends)("patient search index on %s", (backend) => {
  let dbs: Database[] = [];
  let drop: () => Promise<void> = async () => undefined;
  let orgCount = 0;
  beforeAll(async () => {
    const t = await testStorage(backend);
    drop = t.drop;
    const first = await openDatabase(t.storage);
    // Two processes on PostgreSQL: two connections pools. PGlite holds one process's data: both share it.
    dbs = [first, backend === "postgres" ? await openDatabase(t.storage) : first];
  });
  afterAll(async () => {
    for (const db of new Set(dbs)) await db.close();
    await drop();
  });

  const newOrganisation = async () => {
    const id = `org-${++orgCount}`;
    await dbs[0]!.query("insert into organisations (id, name, created_at) values ($1, $2, $3)", [id, id, new Date().toISOString()]);
    return id;
  };
  const fields = (name: string, birth: string, n: number): PatientFields => ({
    name,
    uniqueId: `P-${n}`,
    gender: 0,
    lang: "en",
    birthdate: birth,
  });

  it("every search equals the database's patients filtered and paged, after any writes through either process", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const org = await newOrganisation();
        const indexes = [patientIndex(dbs[0]!), patientIndex(dbs[1]!)];
        const ids: string[] = [];
        let n = 0;
        // A few patients, and both indexes built, so that what follows is placed in what they hold.
        for (const name of names.slice(0, 4)) {
          const id = `p-${org}-${++n}`;
          await patients.insertPatient(dbs[0]!, org, id, fields(name, births[n % 2]!, n), new Date().toISOString());
          ids.push(id);
        }
        for (const index of indexes) await index.search(org, { name: null, birthdate: null, page: 1, quantity: 1 });
        const at = (which: number) => ids[which % Math.max(1, ids.length)];
        for (const o of ops) {
          const db = dbs[o.via]!;
          const now = new Date().toISOString();
          if (o.kind === "register") {
            const id = `p-${org}-${++n}`;
            await patients.insertPatient(db, org, id, fields(names[o.name]!, births[o.birth]!, n), now);
            ids.push(id);
          } else if (o.kind === "search") {
            const s = { name: o.text, birthdate: o.birth === null ? null : births[o.birth]!, page: o.page, quantity: o.quantity };
            expect(await indexes[o.via]!.search(org, s)).toEqual(await oracle(db, org, s));
          } else {
            const id = at(o.which);
            if (id === undefined) continue;
            if (o.kind === "rename")
              await patients.updatePatient(db, org, id, fields(names[o.name]!, births[0]!, ids.indexOf(id) + 1), now);
            else if (o.kind === "delete") await patients.deletePatient(db, org, id);
            else await patients.setPatientTrashed(db, org, id, o.kind === "trash" ? now : null);
          }
        }
        // And a last look through both: the same answer as the database's.
        for (const [i, index] of indexes.entries()) {
          const s = { name: null, birthdate: null, page: 1, quantity: 500 };
          expect(await index.search(org, s)).toEqual(await oracle(dbs[i]!, org, s));
        }
      }),
      { numRuns: backend === "postgres" ? 25 : 40 },
    );
  }, 120_000);

  it("reads the organisation again when the change log was swept past what it holds", async () => {
    const org = await newOrganisation();
    const index = patientIndex(dbs[0]!);
    const everything = { name: null, birthdate: null, page: 1, quantity: 50 };
    await patients.insertPatient(dbs[0]!, org, `${org}-a`, fields("Alpha", births[0]!, 1), new Date().toISOString());
    expect((await index.search(org, everything)).entries.map((p) => p.name)).toEqual(["Alpha"]);
    await patients.insertPatient(dbs[1]!, org, `${org}-b`, fields("Beta", births[0]!, 2), new Date().toISOString());
    await patients.setPatientTrashed(dbs[1]!, org, `${org}-a`, new Date().toISOString());
    await dbs[0]!.query("delete from patient_changes where organisation_id = $1", [org]);
    expect((await index.search(org, everything)).entries.map((p) => p.name)).toEqual(["Beta"]);
  });

  it("searches that arrive together share one refresh and still see a write committed just before them", async () => {
    const org = await newOrganisation();
    const index = patientIndex(dbs[0]!);
    const search = { name: "gamma", birthdate: null, page: 1, quantity: 5 };
    expect((await index.search(org, search)).entries).toEqual([]);
    await patients.insertPatient(dbs[1]!, org, `${org}-g`, fields("Gamma", births[0]!, 1), new Date().toISOString());
    const answers = await Promise.all(Array.from({ length: 8 }, () => index.search(org, search)));
    for (const a of answers) expect(a.entries.map((p) => p.name)).toEqual(["Gamma"]);
    expect(index.held()).toEqual({ organisations: 1, patients: 1 });
  });
});

describe("placing changed patients among the unchanged", () => {
  it("keeps a large organisation's order whole (300,000 patients, changes at the start, middle and end)", () => {
    const kept = Array.from({ length: 300_000 }, (_, i) => i * 2);
    const out = placeAmong(kept, [
      { before: 0, item: -1 },
      { before: 150_000, item: 299_999 },
      { before: 300_000, item: 600_000 },
    ]);
    expect(out.length).toBe(300_003);
    expect([out[0], out[1], out[150_000], out[150_001], out[150_002], out.at(-2), out.at(-1)]).toEqual([
      -1, 0, 299_998, 299_999, 300_000, 599_998, 600_000,
    ]);
  });
});
