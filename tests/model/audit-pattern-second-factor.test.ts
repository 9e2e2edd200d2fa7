import { describe, expect, it } from "vitest";
import { patternOf } from "../../core/model/audit-fhir.ts";

// The second factor's audit events in IHE BALP's patterns (issue 33 item 2): the second step of a login is a login,
// refused or not; setting one up creates it, its first code confirms (updates) it.
describe("the BALP pattern of the second factor's events", () => {
  it("the code that finishes a sign-in is a login; enrolment creates, confirmation updates", () => {
    expect(["secondFactor.signIn", "secondFactor.signInConfirm"].map(patternOf)).toEqual(["login", "login"]);
    expect(["secondFactor.enrol", "secondFactor.confirm"].map(patternOf)).toEqual(["create", "update"]);
  });
});
