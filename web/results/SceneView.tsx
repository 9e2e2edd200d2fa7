import { createContext, lazy, Suspense, useContext, useMemo, type ComponentType } from "react";
import { useLingui } from "@lingui/react";
import { resolveText } from "../../core/plots/message.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { plotTranslate } from "./plot-messages.ts";
import { sceneShapes, type Shape } from "./scene-shapes.ts";

// One plot on screen: a figure named by the scene's (translated) title for assistive technology, drawing the scene's
// shapes with Konva. Konva arrives with the first plot (lazy import), so pages without plots never load it.

export interface ShapeRendererProps {
  readonly width: number;
  readonly height: number;
  readonly shapes: readonly Shape[];
}

const LazyKonvaScene = lazy(() => import("./KonvaScene.tsx"));

/** The component that draws shapes; tests put a DOM renderer here (happy-dom has no canvas). */
export const ShapeRendererContext = createContext<ComponentType<ShapeRendererProps> | null>(null);

/** The translate function of the active language for core/plots texts. */
export function usePlotTranslate() {
  const { i18n } = useLingui();
  return useMemo(() => plotTranslate(i18n), [i18n, i18n.locale]);
}

export function SceneView({ scene, label, className }: { scene: Scene; label?: string; className?: string }) {
  const translate = usePlotTranslate();
  const shapes = useMemo(() => sceneShapes(scene, { translate }), [scene, translate]);
  const Renderer = useContext(ShapeRendererContext) ?? LazyKonvaScene;
  const name = label ?? (scene.title ? resolveText(scene.title, translate) : scene.plot);
  return (
    <figure className={`plot${className ? ` ${className}` : ""}`} role="img" aria-label={name} data-plot={scene.plot}
      style={{ width: scene.width, height: scene.height }}>
      <Suspense fallback={<div className="skeleton plot-pending" style={{ width: scene.width, height: scene.height }} />}>
        <Renderer width={scene.width} height={scene.height} shapes={shapes} />
      </Suspense>
    </figure>
  );
}
