/**
 * The text of an emitted config: a TypeScript file default-exporting a plain object, with the access rules the
 * moved site had (anyone reads what is published, signed-in users read drafts and write).
 */
export type EmittedField = Record<string, unknown>;
export type EmittedCollection = { slug: string; drafts: boolean; fields: EmittedField[] };
export type EmittedGlobal = { slug: string; fields: EmittedField[] };

const literal = (value: unknown) => JSON.stringify(value).replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1: ');

export function configText(heading: string, collections: EmittedCollection[], globals: EmittedGlobal[] = []): string {
  const collection = (c: EmittedCollection) =>
    [
      `    {`,
      `      slug: ${JSON.stringify(c.slug)},`,
      ...(c.drafts ? ['      drafts: true,'] : []),
      `      admin: { useAsTitle: ${JSON.stringify(c.fields.some((f) => f.name === 'title') ? 'title' : 'slug')} },`,
      `      access: ${c.drafts ? 'withDrafts' : 'open'},`,
      `      fields: [`,
      ...c.fields.map((f) => `        ${literal(f)},`),
      `      ],`,
      `    },`,
    ].join('\n');
  const global = (g: EmittedGlobal) =>
    [
      `    {`,
      `      slug: ${JSON.stringify(g.slug)},`,
      `      access: { read: anyone, update: signedIn },`,
      `      fields: [`,
      ...g.fields.map((f) => `        ${literal(f)},`),
      `      ],`,
      `    },`,
    ].join('\n');
  return `${heading
    .split('\n')
    .map((l) => `// ${l}`)
    .join('\n')}
type Data = Record<string, any>;

const anyone = () => true;
const signedIn = ({ user }: Data) => Boolean(user);
/** Anyone reads what is published; signed-in users also read drafts. */
const published = ({ user }: Data) => (user ? true : { status: { equals: 'published' } });
const withDrafts = { read: published, create: signedIn, update: signedIn, delete: signedIn };
const open = { read: anyone, create: signedIn, update: signedIn, delete: signedIn };

export default {
  collections: [
${collections.map(collection).join('\n')}
  ],
  globals: [
${globals.map(global).join('\n')}
  ],
};
`;
}
