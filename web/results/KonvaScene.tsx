import { useCallback, useLayoutEffect, useRef } from "react";
import type Konva from "konva";
// The core build: Stage, Layer and Shape are all a plot needs (no Text, Rect, ... classes to download and parse).
import { Layer, Shape, Stage } from "react-konva/lib/ReactKonvaCore";
import { drawShapes } from "./canvas-draw.ts";
import type { Shape as SceneShape } from "./scene-shapes.ts";

// The react-konva renderer of a scene's shapes. Loaded on its own by SceneView so routes that draw no plot never
// download Konva. One Stage per scene, one Layer without hit testing (plots are not interactive; Konva then skips its
// hit canvas), and one custom Shape whose sceneFunc draws every primitive (canvas-draw.ts): Konva batches the redraws
// by animation frames and handles the device pixel ratio. A scaled plot scales the Stage: the canvas gets the scaled
// size and the shapes are drawn through the scale, so texts and lines stay sharp at any size.

export default function KonvaScene({
  width,
  height,
  scale = 1,
  shapes,
  pixelRatio,
  onDrawn,
}: {
  width: number;
  height: number;
  scale?: number;
  shapes: readonly SceneShape[];
  pixelRatio?: number;
  onDrawn?: (shapes: readonly SceneShape[]) => void;
}) {
  const layer = useRef<Konva.Layer>(null);
  const sceneFunc = useCallback((context: Konva.Context) => drawShapes(context._context, shapes), [shapes]);
  // Report the first draw of these shapes. The layer draws on the next animation frame (batchDraw), after this
  // layout effect has listened; asking for one makes sure a commit that changed nothing still reports.
  useLayoutEffect(() => {
    const l = layer.current;
    if (!l || !onDrawn) return;
    const drawn = () => {
      l.off("draw.timing");
      onDrawn(shapes);
    };
    l.on("draw.timing", drawn);
    l.batchDraw();
    return () => void l.off("draw.timing");
  }, [shapes, onDrawn]);
  return (
    <Stage
      // The figure's size (SceneView): whole pixels, rounded down.
      width={scale === 1 ? width : Math.floor(width * scale)}
      height={scale === 1 ? height : Math.floor(height * scale)}
      scaleX={scale}
      scaleY={scale}
      listening={false}
    >
      <Layer ref={layer} listening={false} {...(pixelRatio ? { pixelRatio } : {})}>
        <Shape sceneFunc={sceneFunc} listening={false} perfectDrawEnabled={false} />
      </Layer>
    </Stage>
  );
}
