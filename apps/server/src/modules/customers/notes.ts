import type { TActor } from '../../actor';
import { newId } from '../../ids';
import { staffNames } from '../access';
import { recordAudit } from '../audit';
import { findUser } from '../identity';
import type { TCustomersPorts } from './customer-access';

const NOTE_LIMIT = 100;

/** The customer's staff notes, newest first, with their authors (named by access). */
export async function listNotes(
  ports: TCustomersPorts,
  { actor, userId }: { actor: TActor; userId: string },
) {
  const rows = await ports.db
    .selectFrom('customer_notes as n')
    .select(['n.id', 'n.body', 'n.created_at', 'n.staff_id'])
    .where('n.tenant_id', '=', actor.tenantId)
    .where('n.user_id', '=', userId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id')
    .limit(NOTE_LIMIT)
    .execute();
  const authors = await staffNames(ports.db, { tenantId: actor.tenantId, ids: rows.map((r) => r.staff_id) });
  return rows.map((r) => {
    const author = authors.get(r.staff_id);
    return {
      id: r.id,
      body: r.body,
      staffName: author ? author.displayName || author.username : '',
      createdAt: new Date(r.created_at).toISOString(),
    };
  });
}

/**
 * Adds a note (and its audit event) in one transaction. `staffName` is the author as the notes show
 * them (the signed-in staff member's display name, else username).
 */
export async function addNote(
  ports: TCustomersPorts,
  { actor, ...input }: { actor: TActor; staffName: string; userId: string; body: string },
) {
  const user = await findUser(ports.db, { tenantId: actor.tenantId, id: input.userId });
  const note = { id: newId(), createdAt: new Date() };
  await ports.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('customer_notes')
      .values({
        id: note.id,
        tenant_id: actor.tenantId,
        user_id: user.id,
        staff_id: actor.id,
        body: input.body,
        created_at: note.createdAt,
      })
      .execute();
    await recordAudit(trx, {
      tenantId: actor.tenantId,
      actorKind: actor.kind,
      actorId: actor.id,
      action: 'customers.note',
      target: user.id,
      ip: actor.ip,
      details: { noteId: note.id, length: input.body.length },
    });
  });
  return {
    id: note.id,
    body: input.body,
    staffName: input.staffName,
    createdAt: note.createdAt.toISOString(),
  };
}
