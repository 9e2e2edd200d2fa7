import { describe, expect, it } from "vitest";
import { patternOf } from "../../core/model/audit-fhir.ts";

// Single sign-on's audit events in IHE BALP's patterns (issue 33): its sign-ins, refused or not, are logins (the
// call, and the event that names the organisation and the reason), its logout a logout.
describe("the BALP pattern of single sign-on's events", () => {
  it("sign-ins are logins and its logout a logout, as the password's", () => {
    expect(["sso.complete", "sso.signIn", "sso.logout"].map(patternOf)).toEqual(["login", "login", "logout"]);
    expect(["login", "logout"].map(patternOf)).toEqual(["login", "logout"]);
  });
});
