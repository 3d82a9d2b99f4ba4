import type { TDb } from '../../db/database';
import type { MailCatcher } from './mail-catcher';

/** What the developer's mailbox reads: the built-in mail catcher and the text messages' outbox. */
export interface TMailboxPorts {
  db: TDb;
  mailCatcher: MailCatcher | null;
}

/**
 * The developer's mailbox: mail caught by the built-in SMTP catcher and the latest 200 text
 * messages of the SMS sandbox, all or those to one recipient.
 */
export async function devMailbox(ports: TMailboxPorts, { to }: { to?: string | undefined }) {
  const mails = ports.mailCatcher?.list(to) ?? [];
  let query = ports.db.selectFrom('sms_outbox').selectAll().orderBy('id', 'desc').limit(200);
  if (to) query = query.where('recipient', '=', to);
  const texts = await query.execute();
  return {
    mails,
    texts: texts.map((t) => ({
      id: Number(t.id),
      channel: t.channel,
      to: t.recipient,
      body: t.body,
      status: t.status,
      providerId: t.provider_id,
      sentAt: new Date(t.created_at).getTime(),
    })),
  };
}
