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

import type { Eye, Strategy } from "../../core/model/enums.ts";

export const eyeNames: Record<Eye, MessageDescriptor> = {
  0: msg`Right eye`,
  1: msg`Left eye`,
  2: msg`Both eyes`,
  3: msg`Binocular`,
};

/** Strategy names are product names (not translated) except the generic ones. */
export const strategyNames: Record<Strategy, MessageDescriptor> = {
  0: msg`Undefined`,
  1: msg`Normal`,
  2: msg`SORS`,
  3: msg`Dynamic`,
  4: msg`Supra-threshold`,
  5: msg`One level`,
  999: msg`SORS screening`,
};
