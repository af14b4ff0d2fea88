/**
 * `POST /media` as multipart with XMLHttpRequest, because only XHR reports upload progress (fetch has no
 * upload progress events). Also the browser-side checks against the configured size and type limits.
 */
import { ApiError, currentCsrf, errorFromBody, runtime, type AdminConfig, type Doc } from './api.ts';
import { formatBytes } from './format.ts';
import { t } from './i18n/i18n.ts';

export interface UploadHandle {
  done: Promise<Doc>;
  abort: () => void;
}

export function uploadMedia(
  file: File,
  fields: Record<string, string>,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Doc>((resolve, reject) => {
    xhr.open('POST', `${runtime.apiPrefix}/media`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    const token = currentCsrf();
    if (token) xhr.setRequestHeader('x-csrf-token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let data: any = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && data?.doc) {
        onProgress(1);
        resolve(data.doc as Doc);
      } else {
        if (xhr.status === 401) dispatchEvent(new Event('cms:unauthorized'));
        reject(errorFromBody(xhr.status, data));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, t('upload.failed')));
    xhr.onabort = () => reject(new ApiError(0, t('upload.cancelled')));
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v !== '') body.append(k, v);
    body.append('file', file, file.name);
    xhr.send(body);
  });
  return { done, abort: () => xhr.abort() };
}

function typeMatches(type: string, pattern: string): boolean {
  if (pattern === '*' || pattern === '*/*') return true;
  if (pattern.endsWith('/*')) return type.startsWith(pattern.slice(0, -1));
  return type === pattern;
}

/**
 * Why the server would refuse this file, judged from what the browser knows (size and the type it
 * guesses from the name). The server decides from the contents; this only saves a pointless upload.
 */
export function precheckUpload(file: File, limits: AdminConfig['upload']): string | null {
  if (limits.maxFileSize && file.size > limits.maxFileSize) {
    return t('upload.tooLarge', {
      name: file.name,
      size: formatBytes(file.size),
      limit: formatBytes(limits.maxFileSize),
    });
  }
  if (file.type && limits.mimeTypes?.length && !limits.mimeTypes.some((p) => typeMatches(file.type, p))) {
    return t('upload.typeRefused', { name: file.name, type: file.type, allowed: limits.mimeTypes.join(', ') });
  }
  return null;
}

/** Value for `<input type=file accept=…>`. */
export const acceptAttr = (limits: AdminConfig['upload']) => (limits.mimeTypes ?? []).join(',');

/** The best small picture for a media document: a generated size when present, else the file itself. */
export function thumbnailURL(doc: Doc | null | undefined): string | null {
  if (!doc || typeof doc.mimeType !== 'string' || !doc.mimeType.startsWith('image/')) return null;
  const sizes =
    doc.sizes && typeof doc.sizes === 'object' ? (Object.values(doc.sizes) as { url?: string; width?: number }[]) : [];
  const small = sizes.filter((s) => s?.url && (s.width ?? 0) >= 160).sort((a, b) => (a.width ?? 0) - (b.width ?? 0))[0];
  return small?.url ?? (typeof doc.url === 'string' ? doc.url : null);
}
