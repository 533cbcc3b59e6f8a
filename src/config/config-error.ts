/** A setting that stops the start, named in the message. A leaf: settings readers of any module import it. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The environment as settings readers see it. */
export type Env = Record<string, string | undefined>;
