// The help topics that have a picture of their screen (issue 21 §7; accounts seed §2 "Videos and images illustrate
// them"). scripts/help-pictures.ts takes them from a running demo clinic into web/public/help/<language>/<topic>.jpg,
// one per interface language, since the screens speak it. Topics without a screen (cleaning) have none; the battery
// LEDs are drawn (BatteryLedFigure).
export const helpPictures = [
  "create-patient",
  "edit-patient",
  "delete-patient",
  "view-patient",
  "plan-measurement",
  "view-measurement",
  "restart-measurement",
  "device-setup",
  "change-password",
  "reset-password",
  "invite-users",
  "troubleshooting-offline",
  "troubleshooting-session",
] as const;
export type HelpPicture = (typeof helpPictures)[number];

export const hasPicture = (topic: string): topic is HelpPicture => (helpPictures as readonly string[]).includes(topic);

export const helpPictureUrl = (language: string, topic: HelpPicture) => `/help/${language}/${topic}.jpg`;
