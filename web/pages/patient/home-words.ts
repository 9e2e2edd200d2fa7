import { msg } from "@lingui/core/macro";
import type { I18n, MessageDescriptor } from "@lingui/core";
import type { ProgrammeRule } from "../../../core/home/programme.ts";
import type { HomeProgrammeView } from "../../../core/model/contract/index.ts";
import { isApiError } from "../../../core/model/contract/index.ts";

// Words for a home programme (issue 31 §1): its frequency, and each rule core/home's checkProgramme may name. The server
// refuses a programme with "rule <id> (...)" in its message (simulator/server/home/binding.ts); the form shows that
// rule in the user's language, the seeds' ones quoted by section as the server quotes them.

export const ruleWords: Record<ProgrammeRule, MessageDescriptor> = {
  "pattern-offered": msg`The pattern is not offered (scheduling rules, allowed options per pattern).`,
  "strategy-for-pattern": msg`This strategy is not offered for the pattern (scheduling rules, allowed options per pattern).`,
  "eye-for-pattern": msg`This eye is not offered for the pattern in stand-alone mode.`,
  "eyes-listed-once": msg`Choose at least one eye, none twice.`,
  dates: msg`The dates must be real calendar dates, the end not before the start.`,
  "frequency-range": msg`Every 2 to 90 days.`,
  "reminder-time": msg`The reminder time must be a time of day (HH:MM).`,
  "time-zone": msg`The clinic's time zone is not known.`,
};

const isRule = (s: string): s is ProgrammeRule => s in ruleWords;

/** The refusal's words: the rule the server named, else its conflict or a generic failure. */
export function refusalWords(e: unknown, i18n: I18n): string {
  if (isApiError(e)) {
    const rule = /\brule ([a-z-]+)/.exec(e.message)?.[1];
    if (rule && isRule(rule)) {
      const words = i18n._(ruleWords[rule]);
      return i18n._(msg`Refused by the rule: ${words}`);
    }
    if (e.isType("conflict"))
      return i18n._(msg`The headset is lent to another patient or was revoked. End that programme or enrol it again first.`);
    if (e.isType("device_busy")) return i18n._(msg`A test is running on this headset. Try again when it has finished.`);
  }
  return i18n._(msg`The programme could not be saved. Try again later.`);
}

/** "Weekly", "Every 3 days". */
export function frequencyWords(f: HomeProgrammeView["frequency"], i18n: I18n): string {
  switch (f.kind) {
    case "daily":
      return i18n._(msg`Daily`);
    case "weekly":
      return i18n._(msg`Weekly`);
    case "monthly":
      return i18n._(msg`Monthly`);
    case "every": {
      const days = f.days;
      return i18n._(msg`Every ${days} days`);
    }
  }
}

/** Why a programme ended. */
export const endWords: Record<NonNullable<HomeProgrammeView["endedReason"]>, MessageDescriptor> = {
  returned: msg`Headset returned`,
  revoked: msg`Headset revoked`,
  ended: msg`Ended by the clinic`,
};
