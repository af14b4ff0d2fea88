/**
 * An API key's `scopes` chosen from a grid of collections × actions (`posts:read`, `posts:*`) or
 * "Everything" (`*`), instead of typed JSON. Used for fields marked `admin.component: 'scopes'`.
 * Scopes the grid cannot show (hand-written ones) are kept and listed.
 */
import { useApp } from '../app-context.ts';
import { pluralLabel } from '../format.ts';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';
import { t } from '../i18n/i18n.ts';

const ACTIONS = ['read', 'create', 'update', 'delete', '*'] as const;
/** Lets an AI assistant (MCP) publish, unpublish, schedule and delete; without it, it saves drafts only. */
export const PUBLISH_SCOPE = 'mcp:publish';

export function ScopesField(props: FieldProps) {
  const { config } = useApp();
  const attrs = useControlProps(props);
  const scopes = Array.isArray(props.value) ? props.value.filter((s): s is string => typeof s === 'string') : [];
  const has = (s: string) => scopes.includes(s);
  const everything = has('*');
  const known = new Set([
    '*',
    PUBLISH_SCOPE,
    ...config.collections.flatMap((c) => ACTIONS.map((a) => `${c.slug}:${a}`)),
  ]);
  const other = scopes.filter((s) => !known.has(s));
  const set = (scope: string, on: boolean) =>
    props.onChange(on ? [...scopes.filter((s) => s !== scope), scope] : scopes.filter((s) => s !== scope));

  return (
    <div class="scopes">
      <label class="check">
        <input
          type="checkbox"
          id={attrs.id}
          disabled={attrs.disabled}
          aria-describedby={attrs['aria-describedby']}
          checked={everything}
          onChange={(e) => set('*', e.currentTarget.checked)}
        />
        {t('fields.scopesAllBefore')} (<code>*</code>): {t('fields.scopesAllAfter')}
      </label>
      {!everything && (
        <div class="table-wrap">
          <table class="scopes-grid">
            <thead>
              <tr>
                <th scope="col">{t('fields.collection')}</th>
                {ACTIONS.map((a) => (
                  <th scope="col" key={a}>
                    {a === '*' ? t('fields.all') : a}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {config.collections.map((c) => (
                <tr key={c.slug}>
                  <th scope="row">{pluralLabel(c)}</th>
                  {ACTIONS.map((a) => {
                    const scope = `${c.slug}:${a}`;
                    const coveredByAll = a !== '*' && has(`${c.slug}:*`);
                    return (
                      <td key={a}>
                        <input
                          type="checkbox"
                          aria-label={scope}
                          disabled={attrs.disabled || coveredByAll}
                          checked={has(scope) || coveredByAll}
                          onChange={(e) => set(scope, e.currentTarget.checked)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <label class="check">
        <input
          type="checkbox"
          disabled={attrs.disabled}
          checked={has(PUBLISH_SCOPE)}
          onChange={(e) => set(PUBLISH_SCOPE, e.currentTarget.checked)}
        />
        Assistants may publish (<code>{PUBLISH_SCOPE}</code>): over MCP, also publish, unpublish, schedule and delete,
        within the rights above
      </label>
      {other.length > 0 && <p class="muted small">{t('fields.alsoKept', { list: other.join(', ') })}</p>}
    </div>
  );
}
