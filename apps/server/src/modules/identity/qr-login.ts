import { EventEmitter } from 'node:events';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newToken, sha256 } from '../../ids';
import { recordAudit } from '../audit';
import { auditActor, type TIdentityPorts } from './ports';

export const QR_TICKET_SECONDS = 120;
type TStatus = 'waiting' | 'scanned' | 'confirmed' | 'consumed' | 'cancelled';

/**
 * QR sign-in: the waiting page holds a one-time ticket (in its QR code), a signed-in phone scans
 * and confirms it, and the waiting page's long poll returns at once with a new session. Changes
 * wake the pollers of this instance immediately; pollers re-read the ticket every 500 ms too, so
 * a confirmation handled by another instance arrives within that time.
 */
export class QrLogin {
  private readonly changes = new EventEmitter();
  constructor(private readonly db: TDb) {
    this.changes.setMaxListeners(0);
  }

  async create(tenantId: string): Promise<{ ticket: string; expiresAt: number }> {
    const ticket = newToken();
    const expiresAt = Date.now() + QR_TICKET_SECONDS * 1000;
    await this.db
      .insertInto('qr_tickets')
      .values({
        ticket_hash: sha256(ticket),
        tenant_id: tenantId,
        status: 'waiting',
        user_id: null,
        expires_at: new Date(expiresAt),
      })
      .execute();
    return { ticket, expiresAt };
  }

  /** Moves a live ticket forward; only a signed-in trader of the same broker may. */
  async advance(
    tenantId: string,
    ticket: string,
    userId: string,
    to: 'scanned' | 'confirmed' | 'cancelled',
  ): Promise<void> {
    const from: TStatus[] = to === 'scanned' ? ['waiting'] : ['waiting', 'scanned'];
    const updated = await this.db
      .updateTable('qr_tickets')
      .set({ status: to, user_id: userId })
      .where('ticket_hash', '=', sha256(ticket))
      .where('tenant_id', '=', tenantId)
      .where('status', 'in', from)
      .where('expires_at', '>', new Date())
      .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', userId)]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError(AppErrorCode.CODE_EXPIRED);
    this.changes.emit(ticket);
  }

  /**
   * Waits until the ticket changes or `waitMs` passes. A confirmed ticket is consumed here, once,
   * and its user id returned so the caller can open the session.
   */
  async poll(
    tenantId: string,
    ticket: string,
    waitMs: number,
  ): Promise<{ status: 'waiting' | 'scanned' | 'confirmed' | 'expired'; userId: string | null }> {
    const deadline = Date.now() + waitMs;
    let firstStatus: TStatus | null = null;
    for (;;) {
      const row = await this.db
        .selectFrom('qr_tickets')
        .select(['status', 'user_id', 'expires_at'])
        .where('ticket_hash', '=', sha256(ticket))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst();
      if (!row || row.expires_at <= new Date() || row.status === 'cancelled' || row.status === 'consumed')
        return { status: 'expired', userId: null };
      if (row.status === 'confirmed') {
        const consumed = await this.db
          .updateTable('qr_tickets')
          .set({ status: 'consumed' })
          .where('ticket_hash', '=', sha256(ticket))
          .where('status', '=', 'confirmed')
          .executeTakeFirst();
        if (Number(consumed.numUpdatedRows) !== 1) return { status: 'expired', userId: null };
        return { status: 'confirmed', userId: row.user_id };
      }
      firstStatus ??= row.status;
      if (row.status !== firstStatus || Date.now() >= deadline)
        return { status: row.status === 'scanned' ? 'scanned' : 'waiting', userId: null };
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(
          () => {
            this.changes.off(ticket, wake);
            resolve();
          },
          Math.min(500, Math.max(0, deadline - Date.now())),
        );
        this.changes.once(ticket, wake);
      });
    }
  }
}

/** QR sign-in: the tickets and the waiting pages' wake-ups. */
export interface TQrPorts extends TIdentityPorts {
  qrLogin: QrLogin;
}

/** qrticket: a new ticket for the waiting page's QR code (anonymous). */
export function startQrLogin(ports: TQrPorts, { tenantId }: { tenantId: string }) {
  return ports.qrLogin.create(tenantId);
}

/**
 * qrstatus: the waiting page's long poll. A confirmed ticket answers its trader's id once; the HTTP
 * layer opens that trader's session on the waiting device.
 */
export function pollQrLogin(
  ports: TQrPorts,
  { tenantId, ticket, waitMs }: { tenantId: string; ticket: string; waitMs: number },
) {
  return ports.qrLogin.poll(tenantId, ticket, waitMs);
}

/** qrscan: the signed-in trader's phone has read the ticket. */
export async function scanQrLogin(ports: TQrPorts, { actor, ticket }: { actor: TActor; ticket: string }) {
  await ports.qrLogin.advance(actor.tenantId, ticket, actor.id, 'scanned');
}

/** qrconfirm: the signed-in trader lets the waiting device in, or turns it away. */
export async function answerQrLogin(
  ports: TQrPorts,
  { actor, ticket, approve }: { actor: TActor; ticket: string; approve: boolean },
) {
  await ports.qrLogin.advance(actor.tenantId, ticket, actor.id, approve ? 'confirmed' : 'cancelled');
  await recordAudit(ports.db, {
    ...auditActor(actor),
    action: approve ? 'user.qr.confirm' : 'user.qr.cancel',
  });
}
