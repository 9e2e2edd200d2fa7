// The review queue's figures for bench:home's table, only where the server has them (issue 31 §2): the counts the
// server answers to `review.counts` (per flag, as it names them), read with the clinic manager's token after the run;
// while the contract has no such call, "not built yet" rather than a number nobody measured.
import { endpoints } from "../../core/model/contract/index.ts";

export const reviewQueueLine = async (url: string, accessToken: string): Promise<string> => {
  const counts = endpoints.find((e) => e.name === ("review.counts" as string));
  if (!counts) return "not built yet; flags by kind: not built yet";
  const res = await fetch(`${url}/api/${counts.path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const body = (await res.json()) as { data: unknown };
  if (!res.ok || body.data === null || typeof body.data !== "object") return `review.counts answered ${res.status}`;
  const figures = Object.entries(body.data as Record<string, unknown>).filter(([, v]) => typeof v === "number");
  return `review.counts: ${figures.map(([k, v]) => `${k} ${v}`).join(", ")}`;
};
