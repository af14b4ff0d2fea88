/**
 * Development builds only (main.tsx calls it behind a check of the build mode; production builds leave it
 * out): counts every render of a component in `window.__cmsRenders`, keyed by the component's name and,
 * for a field's components, the path they edit (`FieldInput@title`). Tests read it to show what a key
 * renders again (docs/admin.md, "Decisions": the form's store).
 */
import { options, type VNode } from 'preact';

/** Preact's hook called just before a component renders (its property name in Preact's built files). */
const BEFORE_RENDER = '__r';

export function countRenders(): void {
  const counts: Record<string, number> = {};
  (window as unknown as { __cmsRenders: Record<string, number> }).__cmsRenders = counts;
  const hooks = options as unknown as Record<string, ((vnode: VNode) => void) | undefined>;
  const previous = hooks[BEFORE_RENDER];
  hooks[BEFORE_RENDER] = (vnode) => {
    previous?.(vnode);
    const type = vnode.type as { displayName?: string; name?: string };
    const path = (vnode.props as { path?: unknown }).path;
    const key = `${type.displayName ?? type.name ?? '?'}${typeof path === 'string' ? `@${path}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  };
}
