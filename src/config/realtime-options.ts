/** The `realtime` setting (docs/realtime.md): limits of the `/realtime` event streams. */
type Fail = (key: string, message: string) => never;

export type RealtimeSettings = {
  /** Open streams per instance; one more is a 429. */
  maxConnections: number;
  /** Of those, streams without a signed-in caller (the rest stay free for signed-in users); one more is a 429. */
  maxAnonymousConnections: number;
  /** Streams without a signed-in caller from one client address (an IPv6 /64 counts as one); one more is a 429. */
  maxConnectionsPerAddress: number;
  /** Streams of one signed-in user, all its sessions and API keys together; one more is a 429. */
  maxConnectionsPerUser: number;
  /** Topics per stream; more is a 400. */
  maxTopics: number;
  /** Bytes written to one stream that have not reached its socket; past this the connection is cut. */
  maxBufferBytes: number;
  /** Milliseconds a write may wait for a client that does not read before the connection is cut. */
  writeTimeout: number;
  /** Milliseconds between the comment lines that keep proxies from closing a quiet stream. */
  heartbeatInterval: number;
};

export type RealtimeConfig = Partial<RealtimeSettings>;

export const REALTIME_DEFAULTS: RealtimeSettings = {
  maxConnections: 10_000,
  maxAnonymousConnections: 8_000,
  maxConnectionsPerAddress: 50,
  maxConnectionsPerUser: 50,
  maxTopics: 50,
  maxBufferBytes: 1_000_000,
  writeTimeout: 30_000,
  heartbeatInterval: 25_000,
};

/** Without its own setting, anonymous streams may take this share of `maxConnections`. */
const ANONYMOUS_SHARE = 0.8;

export function sanitizeRealtime(input: RealtimeConfig | undefined, fail: Fail): RealtimeSettings {
  if (input !== undefined && (typeof input !== 'object' || input === null))
    fail('realtime', `must be { ${Object.keys(REALTIME_DEFAULTS).join(', ')} }`);
  const settings = { ...REALTIME_DEFAULTS, ...input };
  if (input?.maxAnonymousConnections === undefined)
    settings.maxAnonymousConnections = Math.max(1, Math.floor(settings.maxConnections * ANONYMOUS_SHARE));
  for (const name of Object.keys(REALTIME_DEFAULTS) as (keyof RealtimeSettings)[]) {
    const value = settings[name];
    if (!Number.isInteger(value) || value < 1) fail(`realtime.${name}`, 'must be a positive integer');
  }
  return settings;
}
