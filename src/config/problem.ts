/** One thing wrong with the configuration, at its key path (or "(line N)" for YAML syntax). */
export interface ConfigProblem {
  path: string;
  message: string;
  /** The file that holds it when that is not the main file (an included one), relative to the main file's folder. */
  file?: string;
  /** Its line in that file. */
  line?: number;
}
