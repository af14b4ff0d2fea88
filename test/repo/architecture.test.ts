// Runs once (on the SQLite pass): reads the repository's files; no server.
/**
 * One import direction (docs/architecture.md, "Import direction"): every import of src/ and admin/src/ is
 * checked against the table in that page; no module may import itself back through a chain of run-time
 * imports (`import()` included); no chain of imports, type-only ones included, may lead from one folder back
 * to itself except through the page's type hubs; and no two units of the table may import each other.
 * Engine-free: it reads files only.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dir, '../..');
const SIDES = [
  { dir: 'src', prefix: '' },
  { dir: 'admin/src', prefix: 'admin/' },
];

type Unit = { paths: string[]; allowed: Set<string> | 'anything'; row: number };

/** The table of docs/architecture.md's "Import direction" section: unit paths, and what each may import. */
function readTable(): Unit[] {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Import direction'));
  const body = section.slice(0, section.indexOf('\n## ', 1) >>> 0 || undefined);
  const rows = body.split('\n').filter((line) => line.startsWith('| `'));
  const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return rows.map((line, row) => {
    const cells = line.split('|').slice(1, -1);
    const allowedCell = cells[2] ?? '';
    return {
      paths: ticks(cells[0]),
      allowed: allowedCell.trim() === 'anything' ? 'anything' : new Set(ticks(allowedCell)),
      row,
    };
  });
}

/** The type hubs named in that section: files every layer may name in types, which import nothing at run time. */
function readTypeHubs(): string[] {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const line = doc.split('\n').find((l) => l.startsWith('- Type hubs:')) ?? '';
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/** The server files the admin may import at run time (pure rich text code), listed in that section. */
function readSharedWithAdmin(): string[] {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf('- Shared with the admin:');
  const item = doc.slice(start, doc.indexOf('\n- ', start + 1));
  return [...item.split('. ')[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/**
 * Pairs of units still allowed to import each other while the code that ties them is being taken apart: the
 * test fails once a pair no longer needs to stand here, so the list only shrinks.
 */
const MUTUAL_FOR_NOW: [string, string][] = [];

/**
 * Folders built in layers: no circle of imports at all among their files, type-only ones included (the
 * GraphQL schema's builders import the scalar mappings and each other one way, never back).
 */
const LAYERED_FOLDERS = ['graphql'];

const units = readTable();
const typeHubs = readTypeHubs();
const sharedWithAdmin = readSharedWithAdmin();
const unitKey = (unit: Unit) => unit.paths[0];

/** The unit of a module named by its side-relative path (`operations/update.ts`, `admin/form/fields.tsx`). */
function unitOf(path: string): Unit | undefined {
  let best: { unit: Unit; length: number } | undefined;
  for (const unit of units) {
    for (const p of unit.paths) {
      const hit = p.endsWith('/') ? path.startsWith(p) : path === p;
      if (hit && (!best || p.length > best.length)) best = { unit, length: p.length };
    }
  }
  return best?.unit;
}

type Edge = { from: string; to: string; runtime: boolean; dynamic: boolean };

const transpilers = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) };
const IMPORT =
  /(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function moduleName(file: string): string {
  for (const side of SIDES) {
    const rel = relative(join(root, side.dir), file);
    if (!rel.startsWith('..')) return side.prefix + rel;
  }
  return relative(root, file);
}

function collectEdges(): { modules: string[]; edges: Edge[] } {
  const modules: string[] = [];
  const edges: Edge[] = [];
  for (const side of SIDES) {
    for (const rel of new Bun.Glob('**/*.{ts,tsx}').scanSync(join(root, side.dir))) {
      if (rel.endsWith('.d.ts')) continue;
      const file = join(root, side.dir, rel);
      const from = side.prefix + rel;
      modules.push(from);
      const code = readFileSync(file, 'utf8').replace(/^#!.*/, '');
      const target = (spec: string) => moduleName(resolve(dirname(file), spec));
      const runtime = new Map<string, boolean>();
      for (const i of transpilers[file.endsWith('.tsx') ? 'tsx' : 'ts'].scanImports(code))
        if (i.path.startsWith('.')) runtime.set(target(i.path), i.kind === 'dynamic-import');
      const seen = new Set<string>();
      for (const m of code.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2];
        if (!spec.startsWith('.') || spec.endsWith('.css')) continue;
        const to = target(spec);
        if (seen.has(to)) continue;
        seen.add(to);
        edges.push({ from, to, runtime: runtime.has(to), dynamic: runtime.get(to) === true });
      }
    }
  }
  return { modules, edges };
}

const { modules, edges } = collectEdges();
const sideOf = (path: string) => (path.startsWith('admin/') ? 'admin' : 'server');
/** `wire/`: the shapes server and admin share, types only, so the admin may name them. */
const isWire = (path: string) => path.startsWith('wire/');

function forbidden(edge: Edge): string | null {
  const from = unitOf(edge.from);
  const to = unitOf(edge.to);
  if (!from) return `${edge.from} belongs to no unit of the table`;
  if (edge.to.startsWith('..') || edge.to === 'package.json' || edge.to.startsWith('migrations/')) return null;
  if (!to) return `${edge.to} (imported by ${edge.from}) belongs to no unit of the table`;
  if (from === to) return null;
  if (sideOf(edge.from) !== sideOf(edge.to))
    return (!edge.runtime && isWire(edge.to)) || (sideOf(edge.from) === 'admin' && sharedWithAdmin.includes(edge.to))
      ? null
      : `${edge.from} → ${edge.to}: ${edge.runtime ? 'a run-time' : 'a type'} import across server and admin (only types of wire/ cross)`;
  if (to.row === 0 || !edge.runtime) return null;
  if (from.allowed === 'anything') return null;
  if (to.paths.some((p) => (from.allowed as Set<string>).has(p))) return null;
  return `${edge.from} → ${edge.to}: ${unitKey(from)} may not import ${unitKey(to)} at run time`;
}

/** Every cycle of run-time imports (`import()` included), each as the chain of modules that closes it. */
function runtimeCycles(): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.runtime) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (m: string) => {
    state.set(m, 'open');
    stack.push(m);
    for (const n of next.get(m) ?? []) {
      if (state.get(n) === 'open') cycles.push([...stack.slice(stack.indexOf(n)), n]);
      else if (!state.has(n)) visit(n);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of modules) if (!state.has(m)) visit(m);
  return cycles;
}

/**
 * The groups of modules that reach each other through imports of any kind (type-only ones too), leaving the
 * type hubs out; each group of two or more modules holds a cycle (Tarjan's strongly connected components).
 */
function importCircles(): string[][] {
  const hubs = new Set(typeHubs);
  const next = new Map<string, string[]>();
  for (const e of edges)
    if (!hubs.has(e.from) && !hubs.has(e.to)) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (m: string) => {
    index.set(m, index.size);
    low.set(m, index.get(m)!);
    stack.push(m);
    onStack.add(m);
    for (const n of next.get(m) ?? []) {
      if (!index.has(n)) {
        connect(n);
        low.set(m, Math.min(low.get(m)!, low.get(n)!));
      } else if (onStack.has(n)) low.set(m, Math.min(low.get(m)!, index.get(n)!));
    }
    if (low.get(m) !== index.get(m)) return;
    const group: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      group.push(top);
    } while (top !== m);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const m of modules) if (!index.has(m)) connect(m);
  return circles;
}

const folderOf = (module: string) => dirname(module);

/** Pairs of units each of which the table allows to import the other. */
function mutualAllowances(): [string, string][] {
  const allows = (a: Unit, b: Unit) =>
    a.allowed !== 'anything' && b.paths.some((p) => (a.allowed as Set<string>).has(p));
  const pairs: [string, string][] = [];
  for (const a of units)
    for (const b of units) if (a.row < b.row && allows(a, b) && allows(b, a)) pairs.push([unitKey(a), unitKey(b)]);
  return pairs;
}

describe('one import direction', () => {
  test('the table of docs/architecture.md is read and the imports parsed', () => {
    expect(units.length).toBeGreaterThan(20);
    expect(modules.length).toBeGreaterThan(250);
    expect(edges.filter((e) => e.runtime).length).toBeGreaterThan(800);
    // The parser tells type-only imports from run-time ones.
    expect(edges.find((e) => e.from === 'operation-context.ts' && e.to === 'cms.ts')?.runtime).toBe(false);
    // ... and reads `import()` as a run-time import.
    const lazy = edges.find((e) => e.from === 'admin/form/rich-text-field.tsx' && e.to === 'admin/richtext/editor.tsx');
    expect(lazy?.runtime && lazy.dynamic).toBe(true);
  });

  test('every import is one the table allows', () => {
    expect(edges.map(forbidden).filter(Boolean)).toEqual([]);
  });

  test('wire/ holds types only, and the admin names it', () => {
    const wire = modules.filter(isWire);
    expect(wire.length).toBeGreaterThan(0);
    const code = (m: string) => transpilers.ts.transformSync(readFileSync(join(root, 'src', m), 'utf8')).trim();
    expect(wire.filter((m) => code(m) !== '')).toEqual([]);
    expect(edges.some((e) => sideOf(e.from) === 'admin' && isWire(e.to) && !e.runtime)).toBe(true);
  });

  test('what the admin shares of the server imports nothing else at run time, and no package', () => {
    expect(sharedWithAdmin.length).toBeGreaterThan(3);
    for (const shared of sharedWithAdmin) expect(modules).toContain(shared);
    const leaks = edges.filter((e) => sharedWithAdmin.includes(e.from) && e.runtime && !sharedWithAdmin.includes(e.to));
    expect(leaks.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    const packages = sharedWithAdmin.flatMap((m) =>
      transpilers.ts
        .scanImports(readFileSync(join(root, 'src', m), 'utf8'))
        .filter((i) => !i.path.startsWith('.'))
        .map((i) => `${m} → ${i.path}`),
    );
    expect(packages).toEqual([]);
    expect(edges.some((e) => e.from === 'admin/richtext/paste-html.ts' && sharedWithAdmin.includes(e.to))).toBe(true);
  });

  test('no cycle of run-time imports, import() included', () => {
    expect(runtimeCycles().map((chain) => chain.join(' → '))).toEqual([]);
  });

  test('no circle of imports, type-only ones included, that leaves its folder (type hubs aside)', () => {
    const crossing = importCircles().filter((group) => new Set(group.map(folderOf)).size > 1);
    expect(crossing.map((group) => group.join(' ⇄ '))).toEqual([]);
  });

  test('the layered folders hold no circle of imports, type-only ones included', () => {
    const inside = importCircles().filter((group) => group.some((m) => LAYERED_FOLDERS.includes(folderOf(m))));
    expect(inside.map((group) => group.join(' ⇄ '))).toEqual([]);
  });

  test('the type hubs are named, are files of the tree, and import nothing at run time', () => {
    expect(typeHubs).toContain('cms.ts');
    for (const hub of typeHubs) expect(modules).toContain(hub);
    expect(edges.filter((e) => typeHubs.includes(e.from) && e.runtime).map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  test('no two units may import each other', () => {
    const key = ([a, b]: [string, string]) => [a, b].sort().join(' ⇄ ');
    const mutual = mutualAllowances().map(key);
    const forNow = MUTUAL_FOR_NOW.map(key);
    expect(mutual.filter((pair) => !forNow.includes(pair))).toEqual([]);
    // A pair that no longer allows both directions leaves MUTUAL_FOR_NOW.
    expect(forNow.filter((pair) => !mutual.includes(pair))).toEqual([]);
  });
});
