/**
 * `GET /openapi.json` (CONTRACT §12): the instance's OpenAPI 3.1 document, public like the routes it describes.
 * The generator loads on the first request for the document, not at start.
 */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { methods } from '../handle.ts';

export function openAPIRoutes(cms: CMS) {
  return new Elysia().all('/openapi.json', methods(cms, {
    GET: async () => {
      const { openAPIText } = await import('../../openapi/document.ts');
      return new Response(openAPIText(cms.config), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' } });
    },
  }, { csrf: false }));
}
