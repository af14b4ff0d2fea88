/** The admins' operations endpoints (docs/operations.md, docs/webhooks.md): webhook deliveries, health, backups. */
import { api, queryString, runtime, type ListResult } from './api.ts';

export type DeliveryState = 'pending' | 'sending' | 'failed';

export interface Delivery {
  id: string;
  event: string;
  url: string;
  collection?: string;
  global?: string;
  docId: number | string | null;
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface Health {
  status: 'ok' | 'error';
  version: string;
  database: string;
  uptime?: number;
  storage?: string;
  jobs?: { lastRunAt: string | null; lastError: string | null; scheduledPending: number };
  webhooks?: { pending: number; failed: number };
  /** With `replica` set (docs/replication.md); `oldestRestorable` for admins only. */
  replica?: {
    mode: 'async' | 'sync';
    lagMs: number;
    lastTransaction: number;
    lastSnapshotAt: string | null;
    uploadsOnly?: boolean;
    oldestRestorable?: string | null;
  };
}

export interface BackupFile {
  name: string;
  size: number;
  createdAt: string;
}

export interface BackupList {
  docs: BackupFile[];
  totalDocs: number;
  running: { name: string; phase: string; done: number; total: number } | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  collection?: string | null;
  global?: string | null;
  document: number | null;
  user: number | null;
  apiKey: number | null;
  via: string;
  ip: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** The audit log's filters, as the view's query string holds them. */
export type AuditFilter = { user?: string; collection?: string; document?: string; action?: string };

const auditWhere = (f: AuditFilter) => {
  const where: Record<string, unknown> = {};
  if (f.user) where.user = { equals: f.user };
  if (f.collection?.startsWith('globals/')) where.global = { equals: f.collection.slice(8) };
  else if (f.collection) where.collection = { equals: f.collection };
  if (f.document) where.document = { equals: f.document };
  if (f.action) where.action = { equals: f.action };
  return where;
};

export const ops = {
  auditLog: (page: number, filter: AuditFilter) =>
    api<ListResult<AuditEntry>>('GET', `/audit-log${queryString({ limit: 25, page, where: auditWhere(filter) })}`),
  deliveries: (page: number, state?: DeliveryState) =>
    api<ListResult<Delivery>>('GET', `/webhook-deliveries${queryString({ limit: 20, page, state })}`),
  retryDelivery: (id: string) => api<{ doc: Delivery }>('POST', `/webhook-deliveries/${encodeURIComponent(id)}/retry`),
  health: () => api<Health>('GET', '/health'),
  backups: () => api<BackupList>('GET', '/backups'),
  backUpNow: () => api<{ doc?: BackupFile }>('POST', '/backups'),
  backupURL: (name: string) => `${runtime.apiPrefix}/backups/${encodeURIComponent(name)}`,
};
