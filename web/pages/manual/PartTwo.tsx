import { ManualFrame } from "./ManualFrame.tsx";
export default function PartTwo() {
  return <ManualFrame part={2} />;
}
