/** The parts of a diagnostic tests pin: code, severity, file, position and path. */
export interface PinnedDiagnostic {
  code: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  path: string;
}

/** Pins a diagnostic (or anything shaped like one) to code, severity, file, line, column and path. */
export function pinDiagnostic(d: PinnedDiagnostic): PinnedDiagnostic {
  return { code: d.code, severity: d.severity, file: d.file, line: d.line, column: d.column, path: d.path };
}
