/** `cms import markdown DIR --emit-config OUT`: one collection with a field per front-matter key. */
import { configText } from './config-text.ts';
import { collectionOfFolder } from './markdown-shape.ts';
import { readMarkdownFolder } from './markdown-import.ts';

export async function markdownConfig(dir: string, collection?: string): Promise<string> {
  const { fields } = await readMarkdownFolder(dir);
  const slug = collectionOfFolder(dir, collection);
  const heading = `cms.config.ts written by \`cms import markdown --emit-config\` for the folder "${slug}".
Review it (each field's type was guessed from the values found), then run the import (docs/moving-in.md).`;
  return configText(heading, [
    {
      slug,
      drafts: true,
      fields: [
        ...fields.map((f) => f.field),
        { name: 'slug', type: 'text', index: true },
        { name: 'content', type: 'richText' },
      ],
    },
  ]);
}
