/**
 * Records what Payload's own Lexical converters (`@payloadcms/richtext-lexical`, HTML and plain text) make
 * of test/fixtures/richtext/cases.ts, into test/fixtures/richtext/payload-output.json, which
 * test/richtext/convert.test.ts compares our converters with. The package cannot be a devDependency of
 * this project: it installs Payload's framework with it (Next.js, React, @payloadcms/ui: ~700 MB). Run it
 * where the package is installed:
 *   mkdir /tmp/payload-rt && cd /tmp/payload-rt && bun add @payloadcms/richtext-lexical@3.90.1
 *   NODE_PATH=/tmp/payload-rt/node_modules bun <repo>/scripts/record-payload-richtext.ts /tmp/payload-rt
 */
import path from 'node:path';
import { CASES } from '../test/fixtures/richtext/cases.ts';

const where = process.argv[2] ?? process.cwd();
const lexical = path.join(where, 'node_modules/@payloadcms/richtext-lexical');
const { convertLexicalToHTML } = await import(path.join(lexical, 'dist/exports/html/index.js'));
const { convertLexicalToPlaintext } = await import(path.join(lexical, 'dist/exports/plaintext/index.js'));
const version = (await Bun.file(path.join(lexical, 'package.json')).json()).version;

const silent = console.error;
console.error = () => {};
const outputs: Record<string, { html: string; text: string }> = {};
for (const [name, data] of Object.entries(CASES))
  outputs[name] = { html: convertLexicalToHTML({ data }), text: convertLexicalToPlaintext({ data }) };
console.error = silent;

const out = path.join(import.meta.dir, '../test/fixtures/richtext/payload-output.json');
await Bun.write(out, `${JSON.stringify({ converter: `@payloadcms/richtext-lexical ${version}`, outputs }, null, 2)}\n`);
console.log(`wrote ${Object.keys(outputs).length} outputs of @payloadcms/richtext-lexical ${version} to ${out}`);
