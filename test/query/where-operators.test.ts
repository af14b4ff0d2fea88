// Runs once (on the SQLite pass): reads generated documents and compiles SQL without running it.
/**
 * The where operators are listed once (src/query/operators.ts); every layer that names them reads that list:
 * the OpenAPI `WhereCondition`, the GraphQL filter inputs, the MCP tools' description of `where`, and the
 * query compiler, which takes every spelling and refuses any other name. Engine-free: it reads generated
 * documents and compiles SQL without running it.
 */
import { describe, expect, test } from 'bun:test';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { sqliteDialect } from '../../src/db/sqlite/dialect.ts';
import { schemaSDL } from '../../src/graphql/schema.ts';
import { toolDefinitions } from '../../src/mcp/tool-schemas.ts';
import { openAPIDocument } from '../../src/openapi/document.ts';
import { OPERATOR_NAMES, operandKindOf, PAYLOAD_OPERATORS } from '../../src/query/operators.ts';
import { compileWhere, TRUSTED } from '../../src/query/where.ts';

const user: UserConfig = {
  collections: [
    {
      slug: 'places',
      fields: [
        { name: 'name', type: 'text' },
        { name: 'visits', type: 'number', required: true },
        { name: 'at', type: 'point' },
      ],
    },
  ],
};
const config = sanitizeConfig(user, { configPath: '/x/cms.config.ts', rootDir: '/x' });
const places = config.collections.find((c) => c.slug === 'places')!;

/** An operand of the kind an operator takes, on a field that takes it. */
function condition(name: string): Record<string, Record<string, unknown>> {
  switch (operandKindOf(name)) {
    case 'point':
      return { at: { [name]: '13.4,52.5,1000' } };
    case 'boolean':
      return { name: { [name]: 'true' } };
    case 'list':
      return { visits: { [name]: '1,2' } };
    case 'text':
      return { name: { [name]: 'word' } };
    default:
      return { visits: { [name]: 3 } };
  }
}

describe('the where operators, listed once', () => {
  test('the compiler takes every spelling, and refuses any other name', () => {
    for (const name of OPERATOR_NAMES)
      expect(compileWhere(sqliteDialect, places, condition(name), null, TRUSTED)?.sql).toBeString();
    expect(() => compileWhere(sqliteDialect, places, { visits: { greater: 3 } }, null, TRUSTED)).toThrow(
      'Unknown operator "greater" on "visits".',
    );
  });

  test("OpenAPI's WhereCondition lists every spelling, and no other", () => {
    const schemas = (openAPIDocument(config).components as { schemas: Record<string, { properties: object }> }).schemas;
    expect(Object.keys(schemas.WhereCondition!.properties)).toEqual([...OPERATOR_NAMES]);
  });

  test('the GraphQL filter inputs name only operators the compiler takes', () => {
    const sdl = schemaSDL(config);
    const inputs = [...sdl.matchAll(/input \w+_operator \{([^}]*)\}/g)].map((m) => m[1]!);
    expect(inputs.length).toBeGreaterThan(2);
    const names = new Set(inputs.flatMap((body) => [...body.matchAll(/^\s+(\w+):/gm)].map((m) => m[1]!)));
    expect([...names].filter((n) => !OPERATOR_NAMES.includes(n as never))).toEqual([]);
    expect(names.has('near')).toBe(true);
  });

  test("the MCP tools' description of where names every operator", () => {
    const find = toolDefinitions(config).find((t) => t.name === 'find')!;
    const where = (find.inputSchema.properties as Record<string, { description: string }>).where!.description;
    const listed = where.slice(where.indexOf('Operators: ') + 'Operators: '.length).replace(/ \([^)]*\)|\.$/g, '');
    expect(listed.split(', ')).toEqual([...PAYLOAD_OPERATORS]);
  });
});
