import { AppError } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import { ownedFiles } from '../files';

/** What the content use cases work with: the database. */
export interface TContentPorts {
  db: TDb;
}

/** At most one video and five images per feedback. */
const MAX_IMAGES = 5;
const MAX_VIDEOS = 1;

/**
 * Stores a trader's feedback for the back office, with the language and browser it was sent from.
 * The idempotency key makes a retried send store it once: the same key from the same trader
 * answers the first feedback's id.
 */
export async function submitFeedback(
  ports: TContentPorts,
  {
    actor,
    locale,
    userAgent,
    ...input
  }: {
    actor: TActor;
    locale: string;
    userAgent: string | null;
    text: string;
    contacts: Record<string, string | undefined>;
    attachments: string[];
    idempotencyKey: string;
  },
): Promise<{ id: string }> {
  const { db } = ports;
  const userId = actor.id;
  const id = newId();
  const files = await ownedFiles(db, {
    tenantId: actor.tenantId,
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
      .where('tenant_id', '=', actor.tenantId)
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirst();
    if (previous) return { id: previous.id };
    await trx
      .insertInto('feedback')
      .values({
        id,
        tenant_id: actor.tenantId,
        user_id: userId,
        body: input.text,
        contacts: JSON.stringify(contacts),
        attachments: JSON.stringify(
          files.map((f) => ({ id: f.id, mime: f.mime, size: Number(f.size_bytes) })),
        ),
        locale,
        user_agent: userAgent?.slice(0, 300) ?? null,
        idempotency_key: input.idempotencyKey,
      })
      .execute();
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'user.feedback',
      target: id,
      ip: actor.ip,
      details: { length: input.text.length, attachments: files.length },
    });
    return { id };
  });
}
