import { useCallback } from "react";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import type { MessageDescriptor } from "@lingui/core";

// core/client names its notices in English (core/scheduling/notice.ts); the web shows their translation.
// A text core adds later without an entry here is shown as it comes (English).
const noticeTexts: Record<string, MessageDescriptor> = {
  "measurement ready": msg`measurement ready`,
  "Open result": msg`Open result`,
  Open: msg`Open`,
  View: msg`View`,
  "Open bin": msg`Open the bin`,
  "Patient restored": msg`The patient was restored.`,
  "Measurement restored": msg`The measurement was restored.`,
  "Appointment restored": msg`The appointment was restored.`,
  "Patient trashed": msg`The patient was moved to the bin.`,
  "Measurement trashed": msg`The measurement was moved to the bin.`,
  "Appointment trashed": msg`The appointment was moved to the bin.`,
  "Error sending the command to the VR device": msg`error sending the command to the VR device; use the controller or clicker`,
  "Use the controller or clicker": msg`Use the controller or clicker.`,
  "cannot drop here": msg`cannot drop here`,
  "no items between linked cards": msg`no items between linked cards`,
  "Examination couldn't be reordered": msg`The examination could not be reordered.`,
  "Please try again": msg`Please try again.`,
  "Please try again.": msg`Please try again.`,
  // Scheduling seed §8 and accounts seed §8: the failures of trash and delete.
  "There was a problem deleting the measurement.": msg`There was a problem deleting the measurement.`,
  "Failed to trash appointment": msg`Failed to trash appointment`,
  "Examination deleted": msg`Examination deleted`,
  "Examination couldn't be deleted": msg`Examination couldn't be deleted`,
  "There was a problem deleting the patient, try again later": msg`There was a problem deleting the patient, try again later`,
  "Something went wrong. Try again or refresh the browser.": msg`Something went wrong. Try again or refresh the browser.`,
};

export function useNoticeText() {
  const { i18n } = useLingui();
  return useCallback(
    (english: string) => {
      const descriptor = noticeTexts[english];
      return descriptor ? i18n._(descriptor) : english;
    },
    [i18n],
  );
}
