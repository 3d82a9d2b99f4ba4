import { AppError } from '@broker/domain/result-codes';
import type { TCallContext } from '../../http/context';
import { newId } from '../../ids';
import { recordAudit } from '../audit/audit';
import { ownedFiles } from '../files/files';

/** At most one video and five images per feedback. */
const MAX_IMAGES = 5;
const MAX_VIDEOS = 1;

/**
 * Stores a trader's feedback for the back office. The idempotency key makes a retried send store
 * it once: the same key from the same trader answers the first feedback's id.
 */
export async function submitFeedback(
  ctx: TCallContext,
  userId: string,
  input: {
    text: string;
    contacts: Record<string, string | undefined>;
    attachments: string[];
    idempotencyKey: string;
  },
): Promise<{ id: string }> {
  const db = ctx.services.database.db;
  const id = newId();
  const files = await ownedFiles(ctx.services, {
    tenantId: ctx.tenant.id,
    userId,
    ids: input.attachments,
    purpose: 'feedback',
  });
  const videos = files.filter((f) => f.mime.startsWith('video/')).length;
  if (videos > MAX_VIDEOS || files.length - videos > MAX_IMAGES)
    throw AppError.invalid({ attachments: 'tooManyAttachments' });
  const contacts = Object.fromEntries(
    Object.entries(input.contacts).filter(([, v]) => typeof v === 'string' && v.trim() !== ''),
  );
  return db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('feedback')
      .select('id')
      .where('tenant_id', '=', ctx.tenant.id)
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirst();
    if (previous) return { id: previous.id };
    await trx
      .insertInto('feedback')
      .values({
        id,
        tenant_id: ctx.tenant.id,
        user_id: userId,
        body: input.text,
        contacts: JSON.stringify(contacts),
        attachments: JSON.stringify(
          files.map((f) => ({ id: f.id, mime: f.mime, size: Number(f.size_bytes) })),
        ),
        locale: ctx.locale,
        user_agent: ctx.userAgent?.slice(0, 300) ?? null,
        idempotency_key: input.idempotencyKey,
      })
      .execute();
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'user',
      actorId: userId,
      action: 'user.feedback',
      target: id,
      ip: ctx.ip,
      details: { length: input.text.length, attachments: files.length },
    });
    return { id };
  });
}
