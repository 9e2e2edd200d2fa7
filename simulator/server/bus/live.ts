import type { LiveHub } from "../live/hub.ts";
import type { Bus } from "./bus.ts";

// Live events and ended sessions through the bus: `local` holds this process's browser sockets; what any process
// publishes reaches them, and what is published here reaches every other process's.

export const liveThroughBus = (local: LiveHub, bus: Bus): LiveHub => {
  bus.subscribe((m) => {
    if (m.type === "live") local.publish(m.organisationId, m.event);
    else if (m.type === "sessions_ended")
      local.endSessions(m.userId, m.reason, {
        ...(m.keep !== undefined ? { keep: m.keep } : {}),
        ...(m.only !== undefined ? { only: m.only } : {}),
      });
  });
  return {
    ...local,
    publish: (organisationId, event) => bus.publish({ type: "live", organisationId, event }),
    endSessions: (userId, reason, which = {}) => bus.publish({ type: "sessions_ended", userId, reason, ...which }),
  };
};
