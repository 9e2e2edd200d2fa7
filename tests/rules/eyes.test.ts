import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { amslerEyes, eyesFor, offersBothEyes, validateAmslerEye } from "../../core/rules/eyes.ts";

describe("'Both eyes' only when creating (scheduling seed §5)", () => {
  it("'Both eyes' is offered only when creating, not when editing or cloning (perimetry ...)", () => {
    expect(eyesFor(Pattern.G, "create")).toEqual([Eye.Right, Eye.Left, Eye.Both]);
    expect(eyesFor(Pattern.G, "edit")).toEqual([Eye.Right, Eye.Left]);
    expect(eyesFor(Pattern.G, "clone")).toEqual([Eye.Right, Eye.Left]);
  });
  it("our reading: stand-alone mode repeats one measurement, so it offers no 'Both'", () => {
    expect(offersBothEyes("standalone")).toBe(false);
    expect(eyesFor(Pattern.C40, "standalone")).toEqual([Eye.Right, Eye.Left]);
  });
  it("Esterman's eye is locked to Binocular in every mode", () => {
    for (const mode of ["create", "edit", "clone", "standalone"] as const) expect(eyesFor(Pattern.Esterman, mode)).toEqual([Eye.Binocular]);
  });
  it("'(perimetry and Amsler alike)'", () => {
    expect(amslerEyes("create")).toEqual([Eye.Right, Eye.Left, Eye.Both]);
    expect(amslerEyes("edit")).toEqual([Eye.Right, Eye.Left]);
    expect(amslerEyes("clone")).toEqual([Eye.Right, Eye.Left]);
  });
  it("'The Amsler form requires an eye.'", () => {
    expect(validateAmslerEye(null, "create")).toEqual({ key: "required", text: "This field is required." });
    expect(validateAmslerEye(undefined, "edit")?.key).toBe("required");
    expect(validateAmslerEye(Eye.Left, "edit")).toBeUndefined();
    expect(validateAmslerEye(Eye.Both, "edit")?.key).toBe("optionNotAllowed");
    expect(validateAmslerEye(Eye.Both, "create")).toBeUndefined();
  });
});
