import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { FieldKind } from "./dicom-form.ts";

// What a wrong field of the DICOM network says, one message per kind of field: the rules are core/model's schemas
// (AeTitleSchema, DicomHostSchema, DicomPortSchema, the worklist's interval and modality, a local code's scheme and
// value), the words these, in the interface's language, never the schema's English.
export const fieldMessages: Record<FieldKind, MessageDescriptor> = {
  host: msg`Enter a host name (letters, digits, dots and hyphens) or an IP address, an IPv6 address in brackets.`,
  port: msg`Enter a port from 1 to 65535.`,
  aeTitle: msg`An AE title is 1 to 16 characters: letters, digits, spaces and punctuation except the backslash, not only spaces.`,
  intervalMinutes: msg`Enter a whole number of minutes from 1 to 1440.`,
  modality: msg`A modality is 1 to 16 capital letters, digits, spaces or underscores, such as OPV.`,
  codeText: msg`Enter 1 to 64 characters.`,
  storePort: msg`C-MOVE needs the port Isopter receives on: enter a port from 1 to 65535.`,
  deviceSn: msg`This headset is not one of the organisation's. Choose another one or none.`,
};
