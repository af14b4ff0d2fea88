/**
 * An internal link travels through the editor as `cms-doc:<collection>/<id>`, which Lexical's link node
 * would draw as `about:blank`. In the editor such a link points at the document's edit page instead and
 * its tooltip names the document (read once per document).
 */
import { $getNodeByKey, type LexicalEditor } from 'lexical';
import { $isLinkNode, LinkNode } from '@lexical/link';
import { docs, type AdminConfig } from '../api.ts';
import { findCollection } from '../app-context.ts';
import { docLabel } from '../format.ts';
import { runtime } from '../runtime-config.ts';
import { t } from '../i18n/i18n.ts';

const INTERNAL = /^cms-doc:([a-z][\w-]*)\/(\d+)$/i;
const titles = new Map<string, Promise<string>>();

function titleOf(config: AdminConfig, slug: string, id: string): Promise<string> {
  const key = `${slug}/${id}`;
  let title = titles.get(key);
  if (!title) {
    title = docs
      .get(slug, id)
      .then((doc) => docLabel(findCollection(config, slug), doc) || `${slug} #${id}`)
      .catch(() => `${slug} #${id}`);
    titles.set(key, title);
  }
  return title;
}

export function registerInternalLinks(editor: LexicalEditor, config: AdminConfig): () => void {
  return editor.registerMutationListener(LinkNode, (mutations) => {
    editor.getEditorState().read(() => {
      for (const [key, kind] of mutations) {
        if (kind === 'destroyed') continue;
        const node = $getNodeByKey(key);
        const element = editor.getElementByKey(key);
        const internal = $isLinkNode(node) ? INTERNAL.exec(node.getURL()) : null;
        if (!internal || !(element instanceof HTMLAnchorElement)) continue;
        const [, slug, id] = internal as unknown as [string, string, string];
        element.href = `${runtime.adminPrefix}/collections/${encodeURIComponent(slug)}/${id}`;
        void titleOf(config, slug, id).then((label) => {
          element.title = t('rt.openDocument', { label });
        });
      }
    });
  });
}
