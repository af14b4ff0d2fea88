/** The one error type the whole service throws; the HTTP layer turns it into the contract's shape. */
export class APIError extends Error {
  readonly status: number;
  readonly field?: string;
  readonly headers?: Record<string, string>;
  readonly errors?: { message: string; field?: string }[];

  constructor(
    status: number,
    message: string,
    field?: string,
    options: { headers?: Record<string, string>; errors?: { message: string; field?: string }[] } = {},
  ) {
    super(message);
    this.name = 'APIError';
    this.status = status;
    this.field = field;
    this.headers = options.headers;
    this.errors = options.errors;
  }

  /** Each item naming a field also carries it as `path`, where Payload's form helpers look (docs/payload-compatibility.md). */
  toBody(): { errors: { message: string; field?: string; path?: string }[] } {
    const items = this.errors?.length
      ? this.errors
      : [this.field ? { message: this.message, field: this.field } : { message: this.message }];
    return { errors: items.map((item) => (item.field ? { ...item, path: item.field } : item)) };
  }
}

export const badRequest = (message: string, field?: string) => new APIError(400, message, field);
export const notFound = (message = 'Not Found') => new APIError(404, message);
export const forbidden = (message = 'You are not allowed to perform this action.') => new APIError(403, message);
export const unauthorized = (message = 'You must be logged in to perform this action.') => new APIError(401, message);
/** A fault that passes (a database or file store out of reach, a busy pool): the client may retry. */
export const unavailable = (message: string, retryAfterSeconds = 5) =>
  new APIError(503, message, undefined, { headers: { 'retry-after': String(retryAfterSeconds) } });
/** The disk is full: retrying will not help until someone frees space. */
export const insufficientStorage = (message = 'The server has no space left to store this; nothing was changed.') =>
  new APIError(507, message);

/** A config problem found at start-up: printed as one line, exit code 1. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
