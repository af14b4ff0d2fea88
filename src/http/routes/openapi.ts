/** `GET /openapi.json` (CONTRACT §12): the instance's OpenAPI 3.1 document, public like the routes it describes. */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { openAPIText } from '../../openapi/document.ts';
import { methods } from '../handle.ts';

export function openAPIRoutes(cms: CMS) {
  return new Elysia().all('/openapi.json', methods(cms, {
    GET: () => new Response(openAPIText(cms.config), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' } }),
  }, { csrf: false }));
}
