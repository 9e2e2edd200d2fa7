import type { ClickerDisconnectedData } from "../model/live-data.ts";
import type { Notice } from "../scheduling/notice.ts";

// What the client announces (mitt). Views subscribe to `change` and re-read the part named by the topic.

export type ChangeTopic = "cache" | "devices" | "session" | "connectivity" | "marks" | "socket" | "lanes" | "commands";

export type ClientEvents = {
  change: ChangeTopic;
  notice: Notice;
  /** Where the app should go: home (a viewed patient was trashed), login (the session ended). */
  navigate: { readonly to: "home" | "login" };
  /** A headset's clicker dropped out and it stopped the test (scheduling §8 "Clicker disconnected | test stopped
   * message"): {deviceSn, perimetryId, appointmentId, examinationId} of the stopped test. Emitted before the device's
   * status turns stopped. */
  clickerDisconnected: ClickerDisconnectedData;
};
