/** The admins' operations endpoints (docs/operations.md, docs/webhooks.md): webhook deliveries, health, backups. */
import { api, queryString, runtime, type ListResult } from './api.ts'

export type DeliveryState = 'pending' | 'sending' | 'failed'

export interface Delivery {
  id: string
  event: string
  url: string
  collection?: string
  global?: string
  docId: number | string | null
  state: DeliveryState
  attempts: number
  lastError: string | null
  nextAttemptAt: string | null
  createdAt: string
}

export interface Health {
  status: 'ok' | 'error'
  version: string
  database: string
  uptime?: number
  storage?: string
  jobs?: { lastRunAt: string | null; lastError: string | null; scheduledPending: number }
  webhooks?: { pending: number; failed: number }
}

export interface BackupFile {
  name: string
  size: number
  createdAt: string
}

export interface BackupList {
  docs: BackupFile[]
  totalDocs: number
  running: { name: string; phase: string; done: number; total: number } | null
}

export const ops = {
  deliveries: (page: number, state?: DeliveryState) => api<ListResult<Delivery>>('GET', `/webhook-deliveries${queryString({ limit: 20, page, state })}`),
  retryDelivery: (id: string) => api<{ doc: Delivery }>('POST', `/webhook-deliveries/${encodeURIComponent(id)}/retry`),
  health: () => api<Health>('GET', '/health'),
  backups: () => api<BackupList>('GET', '/backups'),
  backUpNow: () => api<{ doc?: BackupFile }>('POST', '/backups'),
  backupURL: (name: string) => `${runtime.apiPrefix}/backups/${encodeURIComponent(name)}`,
}
