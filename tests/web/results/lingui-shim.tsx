// tests/web/lingui-shim.tsx, plus the descriptor form msg({ message }) that web/results' plot messages use.
import type { MessageDescriptor } from "@lingui/core";
import { msg as taggedMsg } from "../lingui-shim.tsx";

export * from "../lingui-shim.tsx";

export const msg = (strings: TemplateStringsArray | MessageDescriptor, ...values: unknown[]): MessageDescriptor => {
  if (Array.isArray(strings)) return taggedMsg(strings as TemplateStringsArray, ...values);
  const d = strings as MessageDescriptor;
  return { id: d.id ?? d.message ?? "", message: d.message ?? "" };
};
export const defineMessage = msg;
