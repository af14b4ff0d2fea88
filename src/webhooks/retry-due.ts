/**
 * PLACEHOLDER: replaced by the webhooks branch, which writes the real `retryDueWebhooks` (stored deliveries
 * that are due, sent and counted). Until it lands the job runner calls this one, which has nothing to send.
 */
import type { CMS } from '../cms.ts';

export async function retryDueWebhooks(_cms: CMS): Promise<{ sent: number; failed: number; pending: number }> {
  return { sent: 0, failed: 0, pending: 0 };
}
