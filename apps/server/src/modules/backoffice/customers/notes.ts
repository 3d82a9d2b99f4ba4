import type { TCallContext } from '../../../http/context';
import { newId } from '../../../ids';
import { recordAudit } from '../../audit/audit';
import { findCustomer, staffOf } from './customer-accounts';

const NOTE_LIMIT = 100;

/** The customer's staff notes, newest first, with their authors. */
export async function listNotes(ctx: TCallContext, userId: string) {
  const rows = await ctx.services.database.db
    .selectFrom('customer_notes as n')
    .innerJoin('staff as s', 's.id', 'n.staff_id')
    .select(['n.id', 'n.body', 'n.created_at', 's.display_name', 's.username'])
    .where('n.tenant_id', '=', ctx.tenant.id)
    .where('n.user_id', '=', userId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id')
    .limit(NOTE_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    body: r.body,
    staffName: r.display_name || r.username,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** Adds a note (and its audit event) in one transaction. */
export async function addNote(ctx: TCallContext, input: { userId: string; body: string }) {
  const user = await findCustomer(ctx, input.userId);
  const staff = staffOf(ctx);
  const note = { id: newId(), createdAt: new Date() };
  await ctx.services.database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('customer_notes')
      .values({
        id: note.id,
        tenant_id: ctx.tenant.id,
        user_id: user.id,
        staff_id: staff.staffId,
        body: input.body,
        created_at: note.createdAt,
      })
      .execute();
    await recordAudit(trx, {
      tenantId: ctx.tenant.id,
      actorKind: 'staff',
      actorId: staff.staffId,
      action: 'customers.note',
      target: user.id,
      ip: ctx.ip,
      details: { noteId: note.id, length: input.body.length },
    });
  });
  return {
    id: note.id,
    body: input.body,
    staffName: staff.displayName || staff.username,
    createdAt: note.createdAt.toISOString(),
  };
}
