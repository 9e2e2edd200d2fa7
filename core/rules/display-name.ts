/** "Display name defaults to 'Test' plus the patient name upon patient selection." (scheduling seed §5) */
export const displayNameFor = (patientName: string): string => {
  const name = patientName.trim();
  return name === "" ? "Test" : `Test ${name}`;
};
