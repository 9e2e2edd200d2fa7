// Vitest runs without the Lingui babel macro (vitest.config.ts has no babel plugin), so component tests replace
// the macro entry points with this runtime stand-in: it renders the English source text. Use it with
//   vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
//   vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));
import { i18n, type MessageDescriptor } from "@lingui/core";
import type { ReactNode } from "react";

i18n.loadAndActivate({ locale: "en", messages: {} });

const interpolate = (strings: TemplateStringsArray, values: unknown[]) =>
  strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ""), "");

type Tagged = (strings: TemplateStringsArray | MessageDescriptor, ...values: unknown[]) => string;

export const t: Tagged = (strings, ...values) =>
  Array.isArray(strings) ? interpolate(strings as TemplateStringsArray, values) : ((strings as MessageDescriptor).message ?? "");

export const msg = (strings: TemplateStringsArray | MessageDescriptor, ...values: unknown[]): MessageDescriptor => {
  if (!Array.isArray(strings))
    return { ...(strings as MessageDescriptor), id: (strings as MessageDescriptor).id ?? (strings as MessageDescriptor).message ?? "" };
  const message = interpolate(strings as TemplateStringsArray, values);
  return { id: message, message };
};
export const defineMessage = msg;

export const plural = (value: number, forms: Record<string, string>) =>
  (value === 0 && forms["=0"]) || (value === 1 ? forms.one : undefined) || forms.other!.replace("#", String(value));

export function useLingui() {
  return { t, i18n, _: i18n._.bind(i18n) };
}

export function Trans({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}

export function Plural({ value, one, other }: { value: number; one?: ReactNode; other: ReactNode }) {
  const form = value === 1 && one !== undefined ? one : other;
  return <>{typeof form === "string" ? form.replace("#", String(value)) : form}</>;
}
