import { ManualFrame } from "./ManualFrame.tsx";
export default function PartOne() {
  return <ManualFrame part={1} />;
}
