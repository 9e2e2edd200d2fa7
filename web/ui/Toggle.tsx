export function Toggle({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <button type="button" role="switch" className="toggle" aria-checked={checked} disabled={disabled} onClick={() => onChange(!checked)}>
      <span className="toggle-track" aria-hidden="true" />
      <span>{label}</span>
    </button>
  );
}
