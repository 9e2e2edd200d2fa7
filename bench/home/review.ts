// The review queue's figures for bench:home's table (issue 31 §2), read from the server after the run with the clinic
// manager's token: its size (review.queue: the items not yet reviewed, all flags) and the flags by kind (review.counts:
// an item with two flags counts under both). A server without these calls prints "not built yet", never a number.
import { endpoints } from "../../core/model/contract/index.ts";

const get = async (url: string, accessToken: string, path: string) => {
  const res = await fetch(`${url}/api/${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const body = (await res.json()) as { data: unknown };
  if (!res.ok || body.data === null || typeof body.data !== "object") throw new Error(`${path} answered ${res.status}`);
  return body.data as Record<string, unknown>;
};

export const reviewQueueLine = async (url: string, accessToken: string): Promise<string> => {
  const queue = endpoints.find((e) => e.name === ("review.queue" as string));
  const counts = endpoints.find((e) => e.name === ("review.counts" as string));
  if (!queue || !counts) return "not built yet; flags by kind: not built yet";
  try {
    const { total } = await get(url, accessToken, `${queue.path}?quantity=1`);
    const flags = Object.entries(await get(url, accessToken, counts.path)).filter(([, v]) => typeof v === "number");
    return `${String(total)} to review; ${flags.map(([k, v]) => `${k} ${String(v)}`).join(", ")}`;
  } catch (e) {
    return (e as Error).message;
  }
};
