// The review queue's figures for bench:home's table, only where the server has them (issue 31 §2): until the contract
// has a review call, the table says "not built yet" rather than a number nobody measured.
import { endpoints } from "../../core/model/contract/index.ts";

export const reviewQueueLine = (): string =>
  endpoints.some((e) => e.path.startsWith("review"))
    ? "a review call exists; this bench does not read it yet"
    : "not built yet; flags by kind: not built yet";
