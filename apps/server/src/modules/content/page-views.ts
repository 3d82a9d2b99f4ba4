import { sql } from 'kysely';
import type { TDb } from '../../db/database';

/** One served page, for the broker's statistics (redirects are not counted). */
export async function recordPageView(
  ports: { db: TDb },
  view: {
    tenantId: string;
    path: string;
    lang: string | null;
    device: string;
    status: number;
    userAgent: string | null;
  },
): Promise<void> {
  await ports.db
    .insertInto('page_views')
    .values({
      tenant_id: view.tenantId,
      path: view.path.slice(0, 500),
      lang: view.lang,
      device: view.device,
      status: view.status,
      user_agent: view.userAgent?.slice(0, 300) || null,
    })
    .execute();
}

/** How many pages the broker served since `since` (the back office's overview). */
export async function pageViewCount(db: TDb, input: { tenantId: string; since: Date }): Promise<number> {
  const row = await db
    .selectFrom('page_views')
    .select(sql<number>`count(*)`.as('n'))
    .where('tenant_id', '=', input.tenantId)
    .where('created_at', '>=', input.since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
