import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { Language, Role, Sex } from "../../core/model/enums.ts";

// Names of domain values as the interface shows them, translated.

export const languageNames: Record<Language, MessageDescriptor> = {
  en: msg`English`,
  fr: msg`French`,
  de: msg`German`,
  it: msg`Italian`,
  es: msg`Spanish`,
  chi: msg`Simplified Chinese`,
  mexsp: msg`Mexican Spanish`,
  bp: msg`Brazilian Portuguese`,
  nl: msg`Dutch`,
  tr: msg`Turkish`,
};

export const sexNames: Record<Sex, MessageDescriptor> = {
  0: msg`Female`,
  1: msg`Male`,
  2: msg`Other`,
};

export const roleNames: Record<Role, MessageDescriptor> = {
  user: msg`User`,
  manager: msg`Manager`,
  admin: msg`Admin`,
};

/** Role hints shown in the role selector (accounts seed §6 "Role hints appear in the role selector"). */
export const roleHints: Record<Role, MessageDescriptor> = {
  user: msg`Works with patients and tests`,
  manager: msg`Also invites, re-roles and deletes users`,
  admin: msg`Administers the organisation's account`,
};

import { strategyCodes, type Eye, type Strategy } from "../../core/model/enums.ts";
import { strategyMessage } from "../../core/plots/code-names.ts";
import { plotMessages } from "../results/plot-messages.ts";

export const eyeNames: Record<Eye, MessageDescriptor> = {
  0: msg`Right eye`,
  1: msg`Left eye`,
  2: msg`Both eyes`,
  3: msg`Binocular`,
};

/** Strategy names as core names them (core/model strategyCodes, core/plots strategyMessage): the same on screen and paper. */
export const strategyNames = Object.fromEntries(
  Object.keys(strategyCodes).map((s) => [s, plotMessages[strategyMessage(Number(s)).id]!]),
) as Record<Strategy, MessageDescriptor>;
