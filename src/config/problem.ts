/** One thing wrong with the configuration, at its key path (or "(line N)" for YAML syntax). */
export interface ConfigProblem {
  path: string;
  message: string;
}
