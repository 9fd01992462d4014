import { ApiError } from "./api-error.js";

/** A setting the server cannot start with; the message says which variable to fix. */
export class ConfigError extends ApiError<"invalid_config"> {
  constructor(message: string) {
    super("invalid_config", message);
    this.name = "ConfigError";
  }
}
