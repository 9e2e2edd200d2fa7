import { message, type RuleMessage } from "./messages.ts";

/** "Notes: at most 256 characters." (scheduling seed §5); "counter warns within 10" (§9). */
export const notesLimit = 256;
export const notesWarningWithin = 10;

export interface NotesCounter {
  readonly length: number;
  readonly limit: number;
  readonly remaining: number;
  /** "counter warns within 10 of the limit": true once 10 or fewer characters remain. */
  readonly warning: boolean;
}

/** Characters are counted as the user sees them (code points), so an emoji counts once. */
export const notesLength = (notes: string): number => [...notes].length;

export const notesCounter = (notes: string): NotesCounter => {
  const length = notesLength(notes);
  const remaining = notesLimit - length;
  return { length, limit: notesLimit, remaining, warning: remaining <= notesWarningWithin };
};

export const validateNotes = (notes: string): RuleMessage | undefined =>
  notesLength(notes) > notesLimit ? message("notesTooLong") : undefined;

/** What a text area with the limit keeps of a typed or pasted value. */
export const clipNotes = (notes: string): string => (notesLength(notes) > notesLimit ? [...notes].slice(0, notesLimit).join("") : notes);
