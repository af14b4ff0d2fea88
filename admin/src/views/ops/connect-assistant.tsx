/**
 * "Connect an assistant" (docs/mcp.md): the MCP URL, a fresh API key limited to the collections and rights
 * chosen here, and ready config snippets for common clients. The key is shown once, like any new key.
 */
import { useState } from 'preact/hooks';
import { docs, runtime } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import { globalLabel, message, pluralLabel } from '../../format.ts';
import { PUBLISH_SCOPE } from '../../form/scopes-field.tsx';
import { CopyButton } from '../../ui/copy-button.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { SecretRow } from '../../ui/secret-row.tsx';
import { t } from '../../i18n/i18n.ts';

type Right = 'none' | 'read' | 'write';
const RIGHTS: { value: Right; label: () => string }[] = [
  { value: 'none', label: () => t('assistant.noAccess') },
  { value: 'read', label: () => t('assistant.read') },
  { value: 'write', label: () => t('assistant.write') },
];

/** The scopes of the choices: reading, or reading and writing; publishing adds delete and `mcp:publish`. */
export function assistantScopes(rights: Record<string, Right>, publish: boolean): string[] {
  const scopes = Object.entries(rights).flatMap(([slug, right]) => {
    if (right === 'read') return [`${slug}:read`];
    if (right === 'write')
      return [`${slug}:read`, `${slug}:create`, `${slug}:update`, ...(publish ? [`${slug}:delete`] : [])];
    return [];
  });
  return publish && scopes.length ? [...scopes, PUBLISH_SCOPE] : scopes;
}

/** Config snippets for clients that speak Streamable HTTP themselves, or through the `mcp-remote` bridge. */
export function clientSnippets(url: string, key: string): { client: string; file: string; text: string }[] {
  const auth = `Bearer ${key}`;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    {
      client: 'Claude Desktop',
      file: 'claude_desktop_config.json',
      text: json({
        mcpServers: {
          cms: {
            command: 'npx',
            args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${CMS_AUTH}'],
            env: { CMS_AUTH: auth },
          },
        },
      }),
    },
    {
      client: 'Cursor',
      file: '~/.cursor/mcp.json',
      text: json({ mcpServers: { cms: { url, headers: { Authorization: auth } } } }),
    },
    {
      client: 'VS Code',
      file: '.vscode/mcp.json',
      text: json({ servers: { cms: { type: 'http', url, headers: { Authorization: auth } } } }),
    },
    {
      client: 'Claude Code',
      file: 'terminal',
      text: `claude mcp add --transport http cms ${url} --header "Authorization: ${auth}"`,
    },
  ];
}

export default function ConnectAssistant() {
  const { config, user } = useApp();
  const url = `${location.origin}${runtime.apiPrefix}/mcp`;
  const entities = [
    ...config.collections
      .filter((c) => c.builtIn !== 'api-keys' && c.builtIn !== 'users')
      .map((c) => ({ slug: c.slug, label: pluralLabel(c) })),
    ...config.globals.map((g) => ({ slug: g.slug, label: globalLabel(g) })),
  ];
  const [name, setName] = useState(() => t('assistant.defaultName'));
  const [rights, setRights] = useState<Record<string, Right>>(() =>
    Object.fromEntries(entities.map((e) => [e.slug, 'read' as Right])),
  );
  const [publish, setPublish] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const scopes = assistantScopes(rights, publish);

  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const { doc } = await docs.create('api-keys', { name, user: user.id, scopes });
      setKey(doc.key as string);
    } catch (err) {
      setError(message(err));
    }
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('assistant.title')}</h1>
      <p class="muted">{t('assistant.intro')}</p>
      <p>
        {t('assistant.address')} <code data-testid="mcp-url">{url}</code>{' '}
        <CopyButton text={url} label={t('assistant.copyAddress')} />
      </p>
      {!key && (
        <form class="form" onSubmit={(e) => void create(e)}>
          <label>
            {t('assistant.keyName')}
            <input type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <fieldset>
            <legend>{t('assistant.mayDo')}</legend>
            <table class="scopes-grid">
              <tbody>
                {entities.map((e) => (
                  <tr key={e.slug}>
                    <th scope="row">{e.label}</th>
                    <td>
                      <select
                        aria-label={t('assistant.accessTo', { label: e.label })}
                        value={rights[e.slug]}
                        onChange={(ev) => setRights({ ...rights, [e.slug]: ev.currentTarget.value as Right })}
                      >
                        {RIGHTS.map((r) => (
                          <option value={r.value} key={r.value}>
                            {r.label()}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </fieldset>
          <label class="check">
            <input type="checkbox" checked={publish} onChange={(e) => setPublish(e.currentTarget.checked)} />
            {t('assistant.publish')}
          </label>
          <ErrorBox error={error} />
          <button type="submit" class="primary" disabled={scopes.length === 0}>
            {t('assistant.create')}
          </button>
        </form>
      )}
      {key && (
        <div>
          <p>{t('assistant.shownOnce')}</p>
          <SecretRow text={key} label={t('assistant.copyKey')} testId="assistant-key" />
          {clientSnippets(url, key).map((s) => (
            <div key={s.client} class="snippet">
              <h2>
                {s.client} <span class="muted small">({s.file})</span>{' '}
                <CopyButton text={s.text} label={t('assistant.copySetup', { client: s.client })} />
              </h2>
              <pre data-testid={`snippet-${s.client}`}>{s.text}</pre>
            </div>
          ))}
          <button type="button" onClick={() => setKey(null)}>
            {t('assistant.another')}
          </button>
        </div>
      )}
    </section>
  );
}
