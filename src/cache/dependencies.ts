/**
 * The tables a read of a collection or global depends on: its own (documents and, through the
 * `_cms_versions` triggers, its drafts), every collection its relationship, upload and rich text fields reach
 * (populated at any depth, so the whole reachable set), and what `cache.dependsOn` names, with what
 * those reach in turn. Computed once per entity of a config.
 */
import { relationTargets } from '../config/relation-targets.ts';
import type { Entity, SanitizedConfig } from '../config/types.ts';
import { walkFields } from '../config/field-tree.ts';

const byEntity = new WeakMap<Entity, string[]>();

export function dependenciesOf(config: SanitizedConfig, entity: Entity): string[] {
  let tables = byEntity.get(entity);
  if (!tables) byEntity.set(entity, (tables = reachable(config, entity)));
  return tables;
}

function reachable(config: SanitizedConfig, start: Entity): string[] {
  const seen = new Set<Entity>([start]);
  const queue: Entity[] = [start];
  const add = (entity: Entity | undefined) => {
    if (entity && !seen.has(entity)) {
      seen.add(entity);
      queue.push(entity);
    }
  };
  while (queue.length) {
    const entity = queue.pop()!;
    walkFields(entity.fields, (field) => {
      for (const slug of relationTargets(field)) add(config.collectionsBySlug.get(slug));
      if (field.type === 'join') add(config.collectionsBySlug.get(field.collection!));
      // Rich text names its targets node by node, so it may reach any collection.
      if (field.type === 'richText') for (const collection of config.collections) add(collection);
    });
    for (const slug of entity.cache.dependsOn)
      add(config.collectionsBySlug.get(slug) ?? config.globalsBySlug.get(slug));
  }
  return [...seen].map((entity) => entity.table);
}
