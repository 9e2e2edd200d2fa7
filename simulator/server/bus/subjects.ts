import type { BusMessage } from "./messages.ts";

// Routing by interest (issue 32 §1): every bus message goes to one subject, and a process hears a subject only while
// it has a reason to (interest.ts):
//   org.<id>      live events of an organisation: while a browser of it is connected to this process;
//   device.<sn>   commands, queue pushes, refusals and "attached" for a headset: while it is connected here;
//   process.<id>  what is addressed to one process (acks, simulator replies, interest acks): always, by that process;
//   all           what every process needs (ended sessions: each process caches sessions; simulator calls without a
//                 target; interest announcements): always, by every process.
// A subject is a string of dot-separated tokens; a token outside [A-Za-z0-9_-] (a serial with a dot or a space) is
// written as "~" and its hex, so NATS (tokens without . * > or spaces) and PostgreSQL channel names both take it.

export type Subject = string;

export const ALL: Subject = "all";

const token = (raw: string) => (/^[A-Za-z0-9_-]{1,64}$/.test(raw) ? raw : `~${Buffer.from(raw, "utf8").toString("hex")}`);

export const orgSubject = (organisationId: string): Subject => `org.${token(organisationId)}`;
export const deviceSubject = (deviceSn: string): Subject => `device.${token(deviceSn)}`;
export const processSubject = (processId: string): Subject => `process.${token(processId)}`;

/** Where a message goes: the only processes that hear it are those interested in this subject. */
export const subjectOf = (message: BusMessage): Subject => {
  switch (message.type) {
    case "live":
      return orgSubject(message.organisationId);
    case "sessions_ended":
      return ALL;
    case "command":
    case "push":
    case "refuse":
    case "attached":
      return deviceSubject(message.deviceSn);
    case "ack":
    case "simulator_reply":
      return processSubject(message.to);
    case "simulator_call":
      return message.to === undefined ? ALL : processSubject(message.to);
  }
};
