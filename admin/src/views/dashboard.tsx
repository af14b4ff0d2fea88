/** Start page: every collection (with its document count) and global, one click away. */
import { useEffect, useState } from 'preact/hooks';
import { docs } from '../api.ts';
import { collectionIcon, mayManage, useApp, visibleCollections } from '../app-context.ts';
import { globalLabel, pluralLabel, singularLabel } from '../format.ts';
import { Link } from '../router.tsx';
import { Icon } from '../ui.tsx';
import { t, tn } from '../i18n/i18n.ts';

export function Dashboard() {
  const { config, user } = useApp();
  // Project collections first; the built-in ones (media, users, API keys) after them.
  const collections = visibleCollections(config, user).sort(
    (a, b) => Number(Boolean(a.builtIn)) - Number(Boolean(b.builtIn)),
  );
  const [counts, setCounts] = useState<Record<string, number>>({});

  useEffect(() => {
    let live = true;
    for (const c of collections) {
      docs
        .list(c.slug, { limit: 1 })
        .then((r) => live && setCounts((m) => ({ ...m, [c.slug]: r.totalDocs })))
        .catch(() => {});
    }
    return () => {
      live = false;
    };
  }, [config]);

  return (
    <section>
      <h1 tabIndex={-1}>{user.name ? t('dashboard.welcomeName', { name: user.name }) : t('dashboard.welcome')}</h1>
      <p class="muted">{t('dashboard.pick')}</p>
      <h2 class="section-title">{t('dashboard.collections')}</h2>
      <ul class="tiles">
        {collections.map((c) => (
          <li class="tile" key={c.slug}>
            <Link to={`/collections/${c.slug}`} class="tile-link">
              <span class="tile-icon">
                <Icon name={collectionIcon(c)} size={18} />
              </span>
              <strong>{pluralLabel(c)}</strong>
              <span class="muted small">
                {c.slug in counts ? tn('dashboard.documents', counts[c.slug]!) : '\u00a0'}
              </span>
            </Link>
            {mayManage(c, user) && (
              <Link
                to={`/collections/${c.slug}/create`}
                class="tile-add"
                aria-label={t('dashboard.create', { label: singularLabel(c) })}
                title={t('dashboard.create', { label: singularLabel(c) })}
              >
                <Icon name="plus" />
              </Link>
            )}
          </li>
        ))}
      </ul>
      {config.globals.length > 0 && (
        <>
          <h2 class="section-title">{t('dashboard.globals')}</h2>
          <ul class="tiles">
            {config.globals.map((g) => (
              <li class="tile" key={g.slug}>
                <Link to={`/globals/${g.slug}`} class="tile-link">
                  <span class="tile-icon">
                    <Icon name="settings" size={18} />
                  </span>
                  <strong>{globalLabel(g)}</strong>
                  <span class="muted small">{t('dashboard.global')}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
