/** The admin's one way to the API: `api()` for JSON with the CSRF token, errors as ApiError, the query-string form. */
import { runtime } from './runtime-config.ts';
import { t } from './i18n/i18n.ts';

export interface FieldError {
  message: string;
  field?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [{ message }],
  ) {
    super(message);
  }
  get field(): string | undefined {
    return this.errors[0]?.field;
  }
}

let csrfToken: string | undefined;

export function setCsrfToken(token: string | null | undefined): void {
  csrfToken = token ?? undefined;
}

/**
 * The CSRF token. The readable `cms-csrf` cookie wins because the server renews it (a password change
 * starts a new session); the token from login or /users/me covers browsers that hide the cookie.
 */
export function currentCsrf(): string | undefined {
  const m = document.cookie.match(/(?:^|;\s*)cms-csrf=([^;]*)/);
  return (m && m[1] ? decodeURIComponent(m[1]) : undefined) ?? csrfToken;
}

/** `{ limit: 10, where: { title: { like: 'x' } } }` → `limit=10&where[title][like]=x` (the bracket form the API reads). */
export function queryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${key}[${k}]`, v);
    } else
      parts.push(
        `${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`,
      );
  };
  for (const [k, v] of Object.entries(params)) add(k, v);
  return parts.length ? `?${parts.join('&')}` : '';
}

export function errorFromBody(status: number, data: any): ApiError {
  const list: FieldError[] = Array.isArray(data?.errors)
    ? data.errors.filter((e: any) => typeof e?.message === 'string')
    : [];
  const fallback =
    status === 413
      ? t('errors.tooLarge')
      : status === 0
        ? t('errors.unreachable')
        : t('errors.requestFailed', { status: String(status) });
  return new ApiError(status, list[0]?.message ?? fallback, list.length ? list : [{ message: fallback }]);
}

const sessionEnded = () => dispatchEvent(new Event('cms:unauthorized'));

async function confirmSession(): Promise<void> {
  try {
    const res = await fetch(`${runtime.apiPrefix}/users/me`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (res.ok && !(await res.json())?.user) sessionEnded();
  } catch {
    // Offline: leave the error as it is.
  }
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') {
    const token = currentCsrf();
    if (token) headers['x-csrf-token'] = token;
  }
  let res: Response;
  try {
    res = await fetch(runtime.apiPrefix + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t('errors.unreachable'));
  }
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // A session that ended elsewhere (logout, password change, deactivation): the app shows the login.
    // Some refusals of a logged-out request arrive as 403/404 (the document is hidden), so ask /users/me.
    if (!/^\/users\/(login|first-register|me|reset-password|forgot-password)/.test(path)) {
      if (res.status === 401) sessionEnded();
      else if (res.status === 403 || res.status === 404) void confirmSession();
    }
    throw errorFromBody(res.status, data);
  }
  if (typeof data?.csrfToken === 'string') setCsrfToken(data.csrfToken);
  return data as T;
}
