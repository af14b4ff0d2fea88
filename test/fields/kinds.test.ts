// Runs once (on the SQLite pass): the field kinds' parts checked against each other; no database.
/**
 * The field kinds (src/fields/kinds/): every field type has one, and each kind's parts agree with each
 * other. For sample values of every type that holds a value, the server's check (validation, as every
 * write runs it) and the strict write schema the MCP tools publish give the same verdict, so a schema can
 * never promise what a write refuses; upload-form parts are read by type. Engine-free: no database.
 */
import { describe, expect, test } from 'bun:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { FIELD_TYPES, type Field, type UserConfig } from '../../src/config/types.ts';
import { KINDS } from '../../src/fields/kinds/index.ts';
import { validateFields } from '../../src/fields/validate.ts';
import { dataSchema } from '../../src/mcp/field-schemas.ts';
import { formFieldsToData } from '../../src/uploads/form-fields.ts';

/** One field per sample set: the value a write may send (`good`) and values it refuses (`bad`). */
const SAMPLES: { field: Field; good: unknown[]; bad: unknown[] }[] = [
  { field: { name: 'text', type: 'text', maxLength: 5 }, good: ['short'], bad: [5, 'too long'] },
  { field: { name: 'textarea', type: 'textarea' }, good: ['two\nlines'], bad: [true] },
  { field: { name: 'email', type: 'email' }, good: ['a@b.cd'], bad: ['nope', 3] },
  { field: { name: 'number', type: 'number', min: 0, max: 10 }, good: [0, 2.5], bad: [-1, 11, 'many'] },
  { field: { name: 'checkbox', type: 'checkbox' }, good: [false, true], bad: ['yes', 1] },
  { field: { name: 'date', type: 'date' }, good: ['2026-03-01T09:00:00Z'], bad: ['not a date', true] },
  { field: { name: 'select', type: 'select', options: ['a', 'b'] }, good: ['a'], bad: ['z', ['a']] },
  {
    field: { name: 'tags', type: 'select', options: ['a', 'b'], hasMany: true },
    good: [['a', 'b']],
    bad: [['z'], 'a'],
  },
  { field: { name: 'radio', type: 'radio', options: ['s', 'm'] }, good: ['m'], bad: ['l'] },
  { field: { name: 'relationship', type: 'relationship', relationTo: 'notes' }, good: [7], bad: [0, 'x', [1]] },
  {
    field: { name: 'many', type: 'relationship', relationTo: 'notes', hasMany: true },
    good: [[1, 2]],
    bad: [[0], 3],
  },
  {
    field: { name: 'either', type: 'relationship', relationTo: ['notes', 'files'] },
    good: [{ relationTo: 'files', value: 2 }],
    bad: [{ relationTo: 'elsewhere', value: 2 }, { relationTo: 'notes', value: 0 }, 2],
  },
  { field: { name: 'upload', type: 'upload', relationTo: 'files' }, good: [3], bad: [-1] },
  { field: { name: 'json', type: 'json' }, good: [{ any: ['thing'] }, 3], bad: [] },
  { field: { name: 'markdown', type: 'markdown' }, good: ['# Title'], bad: [{}] },
  { field: { name: 'code', type: 'code' }, good: ['let a = 1;'], bad: [{ a: 1 }] },
  { field: { name: 'point', type: 'point' }, good: [[13.4, 52.5]], bad: [[181, 0], [0, 91], [1], 'here'] },
  {
    field: { name: 'richText', type: 'richText' },
    good: ['Some *Markdown*', { root: { type: 'root', children: [] } }],
    bad: [{ children: [] }, 5],
  },
  {
    field: { name: 'array', type: 'array', fields: [{ name: 'label', type: 'text', required: true }] },
    good: [[{ label: 'a' }, { id: 'kept', label: 'b' }]],
    bad: ['rows', [{ label: 5 }], [{}]],
  },
  {
    field: { name: 'group', type: 'group', fields: [{ name: 'title', type: 'text' }] },
    good: [{ title: 'x' }],
    bad: ['x', { title: 5 }],
  },
  {
    field: {
      name: 'blocks',
      type: 'blocks',
      blocks: [{ slug: 'hero', fields: [{ name: 'heading', type: 'text', required: true }] }],
    },
    good: [[{ blockType: 'hero', heading: 'Hi', blockName: 'top' }]],
    bad: [[{ blockType: 'nope' }], [{ heading: 'Hi' }], [{ blockType: 'hero' }], 'x'],
  },
];

const userConfig: UserConfig = {
  collections: [
    { slug: 'notes', fields: SAMPLES.map((s) => s.field) },
    { slug: 'files', fields: [{ name: 'title', type: 'text' }] },
  ],
};
const config = sanitizeConfig(userConfig, { configPath: null, rootDir: '/tmp' });
const notes = config.collectionsBySlug.get('notes')!;
const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
const schema = ajv.compile(dataSchema(config, notes, 'update'));

const serverTakes = async (name: string, value: unknown) => {
  const result = await validateFields(notes.fields, { [name]: value }, { operation: 'update', user: null, data: {} });
  return result.errors.length === 0;
};

describe('field kinds', () => {
  test('every field type has a kind, and every value-holding type a sample here', () => {
    expect(Object.keys(KINDS).sort()).toEqual([...FIELD_TYPES].sort());
    const sampled = new Set(SAMPLES.map((s) => s.field.type));
    const holding = FIELD_TYPES.filter((type) => KINDS[type].holds === 'value');
    expect(holding.filter((type) => !sampled.has(type))).toEqual([]);
  });

  test("the server's check and the published write schema agree on every sample", async () => {
    const verdicts: string[] = [];
    for (const { field, good, bad } of SAMPLES) {
      const name = (field as { name: string }).name;
      for (const [value, expected] of [...good.map((v) => [v, true]), ...bad.map((v) => [v, false])] as const) {
        const server = await serverTakes(name, value);
        const published = schema({ [name]: value });
        if (server !== expected || published !== expected)
          verdicts.push(
            `${name} ${JSON.stringify(value)}: server ${server}, schema ${published}, expected ${expected}`,
          );
      }
    }
    expect(verdicts).toEqual([]);
  });

  test('upload form parts are read by the field kind', () => {
    const fields = notes;
    const parts = {
      number: '2.5',
      checkbox: 'on',
      relationship: '7',
      text: '',
      email: '',
      json: '{"a":1}',
      point: '[1,2]',
      tags: '["a"]',
      group: 'not json',
      unknown: 'kept',
    };
    expect(formFieldsToData(fields, parts)).toEqual({
      number: 2.5,
      checkbox: true,
      relationship: 7,
      text: '',
      email: null,
      json: { a: 1 },
      point: [1, 2],
      tags: ['a'],
      group: 'not json',
      unknown: 'kept',
    });
  });
});
