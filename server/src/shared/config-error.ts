/** A setting the server cannot start with; the message says which variable to fix. */
export class ConfigError extends Error {
  readonly code = "invalid_config" as const;
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
