/** The admins' operations pages, fetched together as one chunk the first time one of them opens (views/shell.tsx). */
export { default as WebhookDeliveriesView } from './webhook-deliveries-view.tsx';
export { default as ScheduledJobsView } from './scheduled-jobs-view.tsx';
export { default as HealthView } from './health-view.tsx';
export { default as BackupsView } from './backups-view.tsx';
export { default as AuditLogView } from './audit-log-view.tsx';
export { default as ConnectAssistant } from './connect-assistant.tsx';
