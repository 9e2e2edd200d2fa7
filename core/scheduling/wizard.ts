import type { TestType } from "../model/enums.ts";

// The examination wizard of the appointment variant (scheduling seed §2 "Examination wizard", §4 "Form dependencies").
// Steps: patient selection, patient creation, test selection, one configuration step per chosen test, then a summary.

export type WizardStep =
  | { readonly kind: "patient-selection" }
  | { readonly kind: "patient-creation" }
  | { readonly kind: "test-selection" }
  | { readonly kind: "configuration"; readonly testIndex: number }
  | { readonly kind: "summary" };

/** What the wizard was opened on. */
export interface WizardContext {
  /** Set when editing one existing examination. */
  readonly examinationId?: string | null | undefined;
  /** Set when adding examinations to an existing appointment. */
  readonly appointmentId?: string | null | undefined;
}

export interface WizardState {
  readonly step: WizardStep;
  /** True when editing an existing examination: no summary, final button 'Save test'. */
  readonly editing: boolean;
  readonly patientId: string | null;
  /** The chosen tests, in the order they are configured. */
  readonly tests: readonly TestType[];
}

/**
 * "The start step depends on context: existing examination gives configuration; existing appointment gives test
 * selection; otherwise patient selection."
 */
export function wizardStartStep(context: WizardContext): WizardStep {
  if (context.examinationId != null) return { kind: "configuration", testIndex: 0 };
  if (context.appointmentId != null) return { kind: "test-selection" };
  return { kind: "patient-selection" };
}

export function openWizard(context: WizardContext, initial: { patientId?: string | null; tests?: readonly TestType[] } = {}): WizardState {
  return {
    step: wizardStartStep(context),
    editing: context.examinationId != null,
    patientId: initial.patientId ?? null,
    tests: initial.tests ?? [],
  };
}

/** "Wizard: patient selection needs a chosen patient; test selection needs at least one test." */
export function canGoNext(state: WizardState): boolean {
  switch (state.step.kind) {
    case "patient-selection":
    case "patient-creation":
      return state.patientId !== null;
    case "test-selection":
      return state.tests.length > 0;
    case "configuration":
    case "summary":
      return true;
  }
}

/**
 * The step after this one, or "done" when the final button saves.
 * "configuration walks each chosen test, then (not when editing) a summary."
 */
export function nextStep(state: WizardState): WizardStep | "done" | undefined {
  if (!canGoNext(state)) return undefined;
  const step = state.step;
  switch (step.kind) {
    case "patient-selection":
    case "patient-creation":
      return { kind: "test-selection" };
    case "test-selection":
      return { kind: "configuration", testIndex: 0 };
    case "configuration":
      if (step.testIndex + 1 < testsToConfigure(state)) return { kind: "configuration", testIndex: step.testIndex + 1 };
      return state.editing ? "done" : { kind: "summary" };
    case "summary":
      return "done";
  }
}

/** The step Back returns to, or undefined on the first step of this wizard (no Back button). */
export function previousStep(state: WizardState, context: WizardContext): WizardStep | undefined {
  const start = wizardStartStep(context);
  const step = state.step;
  if (sameStep(step, start)) return undefined;
  switch (step.kind) {
    case "patient-selection":
      return undefined;
    case "patient-creation":
      return { kind: "patient-selection" };
    case "test-selection":
      return { kind: "patient-selection" };
    case "configuration":
      return step.testIndex > 0 ? { kind: "configuration", testIndex: step.testIndex - 1 } : { kind: "test-selection" };
    case "summary":
      return { kind: "configuration", testIndex: Math.max(0, testsToConfigure(state) - 1) };
  }
}

/** True on the step whose primary button saves. */
export const isFinalStep = (state: WizardState): boolean => nextStep(state) === "done";

/** "the final button reads 'Save tests' (or 'Save test' when editing)". */
export const finalButtonLabel = (editing: boolean): "Save tests" | "Save test" => (editing ? "Save test" : "Save tests");

/** The primary button's label on the current step: Next, or the final label on the step that saves. */
export const primaryButtonLabel = (state: WizardState): "Next" | "Save tests" | "Save test" =>
  isFinalStep(state) ? finalButtonLabel(state.editing) : "Next";

// Editing configures the one examination being edited even before its type is known to the wizard.
const testsToConfigure = (state: WizardState): number => Math.max(state.tests.length, state.editing ? 1 : 0);

const sameStep = (a: WizardStep, b: WizardStep): boolean =>
  a.kind === b.kind && (a.kind !== "configuration" || a.testIndex === (b as { testIndex: number }).testIndex);
