import { describe, expect, it } from "vitest";
import { clipNotes, notesCounter, notesLimit, validateNotes } from "../../core/rules/notes.ts";
import { tutorialAvailable, tutorialNeedsGazeTracking } from "../../core/rules/tutorial.ts";

describe("tutorial requirements (scheduling seed §5)", () => {
  it("'Tutorial needs audio guide on, gaze tracking on (in one variant) and patient language English.'", () => {
    const on = { audioGuide: true, trackGaze: true, patientLanguage: "en" as const };
    for (const variant of ["older", "newer"] as const) {
      expect(tutorialAvailable({ ...on, variant })).toBe(true);
      expect(tutorialAvailable({ ...on, variant, audioGuide: false })).toBe(false);
      expect(tutorialAvailable({ ...on, variant, patientLanguage: "de" })).toBe(false);
      expect(tutorialAvailable({ ...on, variant, patientLanguage: null })).toBe(false);
    }
    // "(in one variant)": our reading is the newer one
    expect(tutorialNeedsGazeTracking("newer")).toBe(true);
    expect(tutorialAvailable({ ...on, variant: "newer", trackGaze: false })).toBe(false);
    expect(tutorialAvailable({ ...on, variant: "older", trackGaze: false })).toBe(true);
  });
});

describe("notes (scheduling seed §5, §9; accounts seed §5)", () => {
  it("'Notes: at most 256 characters.'", () => {
    expect(notesLimit).toBe(256);
    expect(validateNotes("a".repeat(256))).toBeUndefined();
    expect(validateNotes("a".repeat(257))?.key).toBe("notesTooLong");
    expect(clipNotes("a".repeat(257))).toBe("a".repeat(256));
    expect(clipNotes("short")).toBe("short");
  });
  it("'Notes limit 256 characters; counter warns within 10.'", () => {
    expect(notesCounter("a".repeat(245))).toEqual({ length: 245, limit: 256, remaining: 11, warning: false });
    expect(notesCounter("a".repeat(246))).toEqual({ length: 246, limit: 256, remaining: 10, warning: true });
    expect(notesCounter("a".repeat(256)).warning).toBe(true);
    expect(notesCounter("").warning).toBe(false);
  });
  it("counts characters, not UTF-16 units", () => {
    expect(notesCounter("👁".repeat(256)).length).toBe(256);
    expect(validateNotes("👁".repeat(256))).toBeUndefined();
  });
});
