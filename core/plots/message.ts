import type { Message, Scene, SceneNode, SceneText } from "./scene.ts";

/**
 * Translates a message into final text (placeholders filled), e.g. with Lingui:
 * `(m) => i18n._(m.id, m.values, { message: m.default })`. Nested message values arrive already resolved to strings.
 * Returning undefined falls back to the English default.
 */
export type Translate = (message: Message) => string | undefined;

/** Fills {name} placeholders from `values`; unknown placeholders stay as written. */
export function interpolate(template: string, values: Readonly<Record<string, string | number>> | undefined): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The text a renderer draws: literal strings as they are, messages translated (or their English default). */
export function resolveText(content: SceneText, translate?: Translate): string {
  if (typeof content === "string") return content;
  const values = content.values
    ? Object.fromEntries(Object.entries(content.values).map(([k, v]) => [k, typeof v === "object" ? resolveText(v, translate) : v]))
    : undefined;
  const flat: Message = values ? { ...content, values } : content;
  return translate?.(flat) ?? interpolate(content.default, values);
}

/** Every message a scene shows (title, texts and nested values), e.g. to check a catalogue has them all. */
export function sceneMessages(scene: Scene): Message[] {
  const out: Message[] = [];
  const add = (m: Message) => {
    out.push(m);
    for (const v of Object.values(m.values ?? {})) if (typeof v === "object") add(v);
  };
  if (scene.title) add(scene.title);
  const visit = (nodes: readonly SceneNode[]) => {
    for (const n of nodes) {
      if (n.kind === "group") visit(n.children);
      else if (n.kind === "text" && typeof n.text !== "string") add(n.text);
    }
  };
  visit(scene.nodes);
  return out;
}
