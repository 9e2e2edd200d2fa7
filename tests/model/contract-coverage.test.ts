import { describe, expect, it } from "vitest";
import { contract, endpoints, findEndpoint } from "../../core/model/contract/index.ts";

// "the contract covers every row of both call tables" (issue #2). Each row below quotes the seed's table cell.

/** Scheduling seed §7 "The calls it makes". */
const schedulingRows: ReadonlyArray<[quote: string, method: string, path: string]> = [
  // Patients
  ["GET patient?id={id}", "GET", "patient"],
  ["GET patient/all", "GET", "patient/all"],
  ["POST patient/search", "POST", "patient/search"],
  ["POST patient/register", "POST", "patient/register"],
  ["PATCH patient?id={id}", "PATCH", "patient"],
  ["PATCH patient/restore?id={id}", "PATCH", "patient/restore"],
  ["DELETE patient/trash?id={id}", "DELETE", "patient/trash"],
  ["DELETE patient/delete?id={id}", "DELETE", "patient/delete"],
  ["GET patient/all_trashed", "GET", "patient/all_trashed"],
  // Perimetry (measurements)
  ["GET perimetry?id={id}", "GET", "perimetry"],
  ["GET perimetry/all?patientId={id}", "GET", "perimetry/all"],
  ["POST perimetry/register", "POST", "perimetry/register"],
  ["PATCH perimetry?id={id}", "PATCH", "perimetry"],
  ["PATCH perimetry/restore?id={id}", "PATCH", "perimetry/restore"],
  ["DELETE perimetry/trash?id={id}, DELETE perimetry/delete?id={id}", "DELETE", "perimetry/trash"],
  ["DELETE perimetry/trash?id={id}, DELETE perimetry/delete?id={id}", "DELETE", "perimetry/delete"],
  ["GET perimetry/all_trashed", "GET", "perimetry/all_trashed"],
  ["POST perimetry/upload", "POST", "perimetry/upload"],
  // Devices
  ["GET device/all", "GET", "device/all"],
  ["PATCH device/update?id={id}", "PATCH", "device/update"],
  ["POST device/standalone?deviceSn={sn}", "POST", "device/standalone"],
  ["GET device/standalone_data?id={standaloneId}", "GET", "device/standalone_data"],
  ["PATCH device/drag_and_drop_perimetry", "PATCH", "device/drag_and_drop_perimetry"],
  ["PATCH device/drag_and_drop_appointment", "PATCH", "device/drag_and_drop_appointment"],
  // Appointments and examinations
  ["GET appointment/all; GET appointment/all_trashed", "GET", "appointment/all"],
  ["GET appointment/all; GET appointment/all_trashed", "GET", "appointment/all_trashed"],
  ["POST appointment/register_with_examinations", "POST", "appointment/register_with_examinations"],
  ["PATCH appointment/update?id={id}", "PATCH", "appointment/update"],
  ["DELETE appointment/trash?id={id}; DELETE appointment/delete?id={id}; PATCH appointment/restore?id={id}", "DELETE", "appointment/trash"],
  [
    "DELETE appointment/trash?id={id}; DELETE appointment/delete?id={id}; PATCH appointment/restore?id={id}",
    "DELETE",
    "appointment/delete",
  ],
  [
    "DELETE appointment/trash?id={id}; DELETE appointment/delete?id={id}; PATCH appointment/restore?id={id}",
    "PATCH",
    "appointment/restore",
  ],
  ["PATCH appointment/examination/insert?appointmentId={id}", "PATCH", "appointment/examination/insert"],
  ["PATCH appointment/examination/reorder?id={id}", "PATCH", "appointment/examination/reorder"],
  ["GET examination/all?patientId={id}&taken={json}&examinationType={type}", "GET", "examination/all"],
  ["PATCH examination/update?id={id}", "PATCH", "examination/update"],
  ["DELETE examination/delete?id={id}; DELETE examination/trash?id={id}", "DELETE", "examination/delete"],
  ["DELETE examination/delete?id={id}; DELETE examination/trash?id={id}", "DELETE", "examination/trash"],
  ["POST examination/register", "POST", "examination/register"],
];

/** Accounts seed §7 "Calls". */
const accountsRows: ReadonlyArray<[quote: string, method: string, path: string]> = [
  ["POST login", "POST", "login"],
  ["POST logout", "POST", "logout"],
  ["POST check_token", "POST", "check_token"],
  ["POST password_reset", "POST", "password_reset"],
  ["PUT password_reset", "PUT", "password_reset"],
  ["POST password_change", "POST", "password_change"],
  ["POST user/signup", "POST", "user/signup"],
  ["POST user/invite, PATCH user/update, DELETE user/delete", "POST", "user/invite"],
  ["POST user/invite, PATCH user/update, DELETE user/delete", "PATCH", "user/update"],
  ["POST user/invite, PATCH user/update, DELETE user/delete", "DELETE", "user/delete"],
  ["GET user/all, GET organisation/current, GET version", "GET", "user/all"],
  ["GET user/all, GET organisation/current, GET version", "GET", "organisation/current"],
  ["GET user/all, GET organisation/current, GET version", "GET", "version"],
  ["GET patient?id={id}", "GET", "patient"],
  ["GET patient/all, GET patient/all_trashed", "GET", "patient/all"],
  ["GET patient/all, GET patient/all_trashed", "GET", "patient/all_trashed"],
  ["POST patient/search", "POST", "patient/search"],
  ["POST patient/register", "POST", "patient/register"],
  ["PATCH patient?id={id}", "PATCH", "patient"],
  ["DELETE patient/trash?id={id}", "DELETE", "patient/trash"],
  ["PATCH patient/restore?id={id}; DELETE patient/delete?id={id}", "PATCH", "patient/restore"],
  ["PATCH patient/restore?id={id}; DELETE patient/delete?id={id}", "DELETE", "patient/delete"],
  ["GET perimetry/all?patientId={id}; GET perimetry?id={id}; GET perimetry/all_trashed", "GET", "perimetry/all"],
  ["GET perimetry/all?patientId={id}; GET perimetry?id={id}; GET perimetry/all_trashed", "GET", "perimetry"],
  ["GET perimetry/all?patientId={id}; GET perimetry?id={id}; GET perimetry/all_trashed", "GET", "perimetry/all_trashed"],
  ["PATCH perimetry?id={id}", "PATCH", "perimetry"],
  ["PATCH perimetry/restore?id; DELETE perimetry/trash?id; DELETE perimetry/delete?id", "PATCH", "perimetry/restore"],
  ["PATCH perimetry/restore?id; DELETE perimetry/trash?id; DELETE perimetry/delete?id", "DELETE", "perimetry/trash"],
  ["PATCH perimetry/restore?id; DELETE perimetry/trash?id; DELETE perimetry/delete?id", "DELETE", "perimetry/delete"],
  ["GET examination/all?patientId&taken&examinationType", "GET", "examination/all"],
  ["GET appointment/all, appointment/all_trashed; PATCH appointment/restore; DELETE appointment/trash, delete", "GET", "appointment/all"],
  [
    "GET appointment/all, appointment/all_trashed; PATCH appointment/restore; DELETE appointment/trash, delete",
    "GET",
    "appointment/all_trashed",
  ],
  [
    "GET appointment/all, appointment/all_trashed; PATCH appointment/restore; DELETE appointment/trash, delete",
    "PATCH",
    "appointment/restore",
  ],
  [
    "GET appointment/all, appointment/all_trashed; PATCH appointment/restore; DELETE appointment/trash, delete",
    "DELETE",
    "appointment/trash",
  ],
  [
    "GET appointment/all, appointment/all_trashed; PATCH appointment/restore; DELETE appointment/trash, delete",
    "DELETE",
    "appointment/delete",
  ],
  ["GET device/all", "GET", "device/all"],
];

describe("the contract covers every row of both call tables", () => {
  for (const [quote, method, path] of [...schedulingRows, ...accountsRows]) {
    it(`${method} ${path}  (seed: "${quote}")`, () => {
      const e = findEndpoint(method, path);
      expect(e, `${method} ${path} missing`).toBeDefined();
      expect(e!.method).toBe(method);
      expect(e!.path).toBe(path);
    });
  }

  it('accounts §7 "User profile fetch | not shown (path)": our design GET user/profile, marked as such', () => {
    const e = contract["user.profile"];
    expect(e.source).toBe("our design");
    expect(e.ourDesign).toMatch(/not shown/);
  });

  it("templates CRUD (issue #4) exist and are marked our design", () => {
    for (const path of ["template/all", "template/create", "template/update", "template/copy", "template/delete"]) {
      const e = endpoints.find((x) => x.path === path);
      expect(e?.source, path).toBe("our design");
    }
  });

  it("every endpoint's name is its contract key, and method+path pairs are unique", () => {
    for (const [key, e] of Object.entries(contract)) expect(e.name).toBe(key);
    const routes = endpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("paths are relative (no leading slash, no query)", () => {
    for (const e of endpoints) expect(e.path, e.name).toMatch(/^[a-z_]+(\/[a-z_]+)*$/);
  });

  it("queries of the tables' '?x={..}' rows are declared", () => {
    const q = (name: keyof typeof contract) => contract[name] as { readonly query?: unknown };
    expect(q("patient.get").query).toBeDefined();
    expect(q("perimetry.all").query).toBeDefined();
    expect(q("device.standalone").query).toBeDefined();
    expect(q("appointment.insertExaminations").query).toBeDefined();
    expect(q("examination.all").query).toBeDefined();
  });
});
