import { Circle, Group, Layer, Line, Rect, Stage, Text } from "react-konva";
import type { Shape } from "./scene-shapes.ts";

// The react-konva renderer of a scene's shapes (scene-shapes.ts). Loaded lazily by SceneView so routes that draw no
// plot never download Konva. One Stage per scene, one Layer without hit testing (plots are not interactive; Konva
// then skips its hit canvas). Konva batches redraws by animation frames.

function Node({ shape }: { shape: Shape }) {
  switch (shape.type) {
    case "rect":
      return <Rect {...shape} perfectDrawEnabled={false} listening={false} />;
    case "circle":
      return <Circle {...shape} perfectDrawEnabled={false} listening={false} />;
    case "line":
      return <Line {...shape} lineJoin="round" perfectDrawEnabled={false} listening={false} />;
    case "text":
      return <Text {...shape} perfectDrawEnabled={false} listening={false} />;
    case "group": {
      const { children, type: _type, ...props } = shape;
      return <Group {...props} listening={false}>{children.map((c, i) => <Node key={i} shape={c} />)}</Group>;
    }
  }
}

export default function KonvaScene({ width, height, shapes, pixelRatio }: { width: number; height: number; shapes: readonly Shape[]; pixelRatio?: number }) {
  return (
    <Stage width={width} height={height} listening={false}>
      <Layer listening={false} {...(pixelRatio ? { pixelRatio } : {})}>
        {shapes.map((s, i) => <Node key={i} shape={s} />)}
      </Layer>
    </Stage>
  );
}
