/** One operation object: its answers (JSON, with the error shape for every failure status it may give), parameters, body. */
import type { Schema } from './field-schemas.ts';
import { operationId } from './names.ts';
import { readSecurity, writeSecurity } from './components.ts';

export type Operation = Record<string, unknown>;
export type PathItem = Record<string, Operation>;
export type Paths = Record<string, PathItem>;

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input or query.',
  401: 'No valid credentials were sent.',
  403: 'Access denied, or the CSRF or origin check failed.',
  404: 'Not found, or hidden by the read filter.',
  409: 'The state does not allow it (a release that is not open, or items that fail their checks).',
  413: 'The upload is larger than upload.maxFileSize.',
  415: 'The upload type is not allowed.',
  429: 'Too many failed logins; see Retry-After.',
  503: 'The database does not answer.',
};

export const json = (schema: Schema, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});
export const parameter = (name: string) => ({ $ref: `#/components/parameters/${name}` });
export const pathParameter = (name: string, schema: Schema = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  schema,
});

export type OperationSpec = {
  summary: string;
  tags: string[];
  ok: Record<number, unknown>;
  errors?: number[];
  parameters?: unknown[];
  body?: Schema;
  bodyType?: string;
  security?: unknown[];
  description?: string;
};

/** Every operation may answer 500 in the error shape; the listed statuses are the ones its rules give. */
export function operation(method: string, path: string, spec: OperationSpec): Operation {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(spec.ok)) responses[status] = response;
  for (const status of [...(spec.errors ?? []), 500]) {
    responses[status] = {
      description: ERROR_TEXT[status] ?? 'Server failure (production: no details).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const write = method !== 'get';
  return {
    operationId: operationId(method, path),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    ...(spec.parameters?.length ? { parameters: spec.parameters } : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { [spec.bodyType ?? 'application/json']: { schema: spec.body } } } }
      : {}),
    security: spec.security ?? (write ? writeSecurity : readSecurity),
    responses,
  };
}
