// core/scheduling: lanes, drag-and-drop plans, pairs of eyes, examination order, wizard steps, pinned lanes.
export * from "./lane.ts";
export * from "./notice.ts";
export * from "./drop-plan.ts";
export * from "./drop-request.ts";
export * from "./move-check.ts";
export * from "./examination-order.ts";
export * from "./wizard.ts";
export * from "./pinned-lanes.ts";
export * from "./next-test.ts";
