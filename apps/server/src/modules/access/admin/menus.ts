import type { TMenuSection } from '@broker/contracts/admin/access-routes';
import { BACKOFFICE_MENU } from '@broker/contracts/permissions';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../../actor';
import type { TDb } from '../../../db/database';
import { auditAccess, isDefaultTenant, type TAccessPorts } from '../common';

/** The menu entry that arranges the menu: it cannot be hidden, so the page stays in reach. */
const MENUS_KEY = 'menus';

export interface TMenuLayout {
  sections: TMenuSection[];
  hidden: string[];
}

/** Menu keys a broker can arrange, in the product's order (platform entries only for the operator). */
export const arrangeableKeys = (isDefault: boolean): string[] =>
  BACKOFFICE_MENU.filter((entry) => isDefault || !entry.platform).map((entry) => entry.key);

/**
 * A stored layout applied to today's menu: unknown or repeated keys drop out, and entries the map
 * gained since the layout was saved join the last section, so a growing menu never loses an entry.
 */
export function resolveLayout(stored: TMenuLayout | null, keys: readonly string[]): TMenuLayout {
  const known = new Set(keys);
  const placed = new Set<string>();
  const sections = (stored?.sections ?? [{ title: null, keys: [...keys] }]).map((section) => ({
    title: section.title?.trim() ? section.title.trim() : null,
    keys: section.keys.filter((key) => {
      if (!known.has(key) || placed.has(key)) return false;
      placed.add(key);
      return true;
    }),
  }));
  const missing = keys.filter((key) => !placed.has(key));
  if (missing.length > 0) {
    const last = sections.at(-1);
    if (last) last.keys.push(...missing);
    else sections.push({ title: null, keys: missing });
  }
  const hidden = [...new Set(stored?.hidden ?? [])].filter((key) => known.has(key) && key !== MENUS_KEY);
  return { sections, hidden };
}

async function storedLayout(db: TDb, tenantId: string) {
  return db
    .selectFrom('access_menu_layouts')
    .select(['sections', 'hidden', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** The broker's menu layout for the menus page. */
export async function readMenuLayout({ db }: TAccessPorts, { actor }: { actor: TActor }) {
  return menuLayout(db, actor.tenantId);
}

async function menuLayout(db: TDb, tenantId: string) {
  const keys = arrangeableKeys(await isDefaultTenant(db, tenantId));
  const row = await storedLayout(db, tenantId);
  return {
    ...resolveLayout(row ? { sections: row.sections, hidden: row.hidden } : null, keys),
    entries: keys,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/**
 * The side menu one staff member sees: the broker's arrangement without hidden entries and without
 * entries their permissions do not open; sections left empty drop out.
 */
export async function staffMenu(
  db: TDb,
  tenantId: string,
  permissions: readonly string[],
): Promise<TMenuSection[]> {
  const allowed = BACKOFFICE_MENU.filter((entry) => permissions.includes(entry.permission)).map((e) => e.key);
  const row = await storedLayout(db, tenantId);
  const layout = resolveLayout(
    row ? { sections: row.sections, hidden: row.hidden } : null,
    BACKOFFICE_MENU.map((entry) => entry.key),
  );
  const hidden = new Set(layout.hidden);
  return layout.sections
    .map((section) => ({
      title: section.title,
      keys: section.keys.filter((k) => allowed.includes(k) && !hidden.has(k)),
    }))
    .filter((section) => section.keys.length > 0);
}

/** Saves the arrangement; unknown or repeated keys and hiding the menus page itself are refused (-6013). */
export async function saveMenuLayout(
  { db }: TAccessPorts,
  { actor, ...input }: { actor: TActor } & TMenuLayout,
) {
  const tenantId = actor.tenantId;
  const keys = arrangeableKeys(await isDefaultTenant(db, tenantId));
  const listed = input.sections.flatMap((s) => s.keys);
  const bad = [...listed, ...input.hidden].filter((key) => !keys.includes(key));
  if (bad.length > 0 || new Set(listed).size !== listed.length || input.hidden.includes(MENUS_KEY))
    throw new AppError(AppErrorCode.CONFIG_INVALID, undefined, `menu keys: ${bad.join(',')}`);
  const layout = resolveLayout(input, keys);
  const before = await storedLayout(db, tenantId);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('access_menu_layouts')
      .values({
        tenant_id: tenantId,
        sections: JSON.stringify(layout.sections),
        hidden: JSON.stringify(layout.hidden),
        updated_by: actor.id,
      })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({
          sections: JSON.stringify(layout.sections),
          hidden: JSON.stringify(layout.hidden),
          updated_by: actor.id,
          updated_at: new Date(),
        }),
      )
      .execute();
    await auditAccess(trx, actor, 'access.menu.save', tenantId, {
      before: before ? { sections: before.sections, hidden: before.hidden } : null,
      after: layout,
    });
  });
  return menuLayout(db, tenantId);
}
