import { describe, expect, it } from "vitest";
import {
  canGoNext,
  finalButtonLabel,
  nextStep,
  openWizard,
  previousStep,
  primaryButtonLabel,
  wizardStartStep,
  type WizardState,
} from "../../core/scheduling/index.ts";

describe("examination wizard (scheduling seed §2 'Examination wizard', §4 'Form dependencies')", () => {
  it("'The start step depends on context: existing examination gives configuration; existing appointment gives test selection; otherwise patient selection.'", () => {
    expect(wizardStartStep({ examinationId: "e", appointmentId: "a" })).toEqual({ kind: "configuration", testIndex: 0 });
    expect(wizardStartStep({ appointmentId: "a" })).toEqual({ kind: "test-selection" });
    expect(wizardStartStep({})).toEqual({ kind: "patient-selection" });
  });

  it("'Wizard: patient selection needs a chosen patient; test selection needs at least one test'", () => {
    const s = openWizard({});
    expect(canGoNext(s)).toBe(false);
    expect(nextStep(s)).toBeUndefined();
    expect(nextStep({ ...s, patientId: "p" })).toEqual({ kind: "test-selection" });
    const t: WizardState = { ...s, patientId: "p", step: { kind: "test-selection" } };
    expect(canGoNext(t)).toBe(false);
    expect(nextStep({ ...t, tests: ["amsler"] })).toEqual({ kind: "configuration", testIndex: 0 });
  });

  it("'configuration walks each chosen test, then (not when editing) a summary'", () => {
    let s: WizardState = { ...openWizard({}), patientId: "p", tests: ["perimetry", "amsler"], step: { kind: "test-selection" } };
    const seen: string[] = [];
    for (;;) {
      const next = nextStep(s);
      if (next === undefined || next === "done") break;
      seen.push(next.kind === "configuration" ? `configuration ${next.testIndex}` : next.kind);
      s = { ...s, step: next };
    }
    expect(seen).toEqual(["configuration 0", "configuration 1", "summary"]);
    const editing = openWizard({ examinationId: "e" }, { patientId: "p", tests: ["perimetry"] });
    expect(nextStep(editing)).toBe("done");
  });

  it("'the final button reads 'Save tests' (or 'Save test' when editing)'", () => {
    expect(finalButtonLabel(false)).toBe("Save tests");
    expect(finalButtonLabel(true)).toBe("Save test");
    expect(primaryButtonLabel(openWizard({ examinationId: "e" }, { tests: ["amsler"] }))).toBe("Save test");
    const s: WizardState = { ...openWizard({}), patientId: "p", tests: ["amsler"], step: { kind: "summary" } };
    expect(primaryButtonLabel(s)).toBe("Save tests");
    expect(primaryButtonLabel({ ...s, step: { kind: "configuration", testIndex: 0 } })).toBe("Next");
  });

  it("Back walks the steps in reverse and stops at the start step", () => {
    const ctx = { appointmentId: "a" };
    const s: WizardState = { ...openWizard(ctx), tests: ["amsler", "perimetry"], step: { kind: "summary" } };
    expect(previousStep(s, ctx)).toEqual({ kind: "configuration", testIndex: 1 });
    expect(previousStep({ ...s, step: { kind: "configuration", testIndex: 0 } }, ctx)).toEqual({ kind: "test-selection" });
    expect(previousStep({ ...s, step: { kind: "test-selection" } }, ctx)).toBeUndefined();
    expect(previousStep({ ...s, step: { kind: "patient-creation" } }, {})).toEqual({ kind: "patient-selection" });
  });
});
