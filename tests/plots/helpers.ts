// Queries over scenes for the tests: texts as drawn (English defaults), nodes by kind and role.
import { resolveText } from "../../core/plots/message.ts";
import { walk, type GroupNode, type Scene, type SceneNode, type TextNode } from "../../core/plots/scene.ts";

type Nodes = Scene | GroupNode | readonly SceneNode[];

export const nodesOf = (from: Nodes): SceneNode[] =>
  Array.isArray(from) ? walk(from) : "nodes" in (from as Scene) ? walk((from as Scene).nodes) : walk((from as GroupNode).children);

export function group(scene: Scene, role: string): GroupNode {
  const g = nodesOf(scene).find((n): n is GroupNode => n.kind === "group" && n.role === role);
  if (!g) throw new Error(`no group with role ${role} in ${scene.plot}`);
  return g;
}

export const textsOf = (nodes: Nodes) =>
  nodesOf(nodes)
    .filter((n): n is TextNode => n.kind === "text")
    .map((t) => resolveText(t.text));

export const ofKind = <K extends SceneNode["kind"]>(nodes: Nodes, kind: K) =>
  nodesOf(nodes).filter((n): n is Extract<SceneNode, { kind: K }> => n.kind === kind);
