import { compareSemver, RELEASE_NOTE_LOCALES, type TAppPlatform } from '@broker/contracts/admin/audit-rules';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { FALLBACK_LOCALE, isLocaleCode } from '@broker/i18n/locales';
import { auditedActor, type TActor } from '../../actor';
import type { TDb } from '../../db/database';
import { newId } from '../../ids';
import { changes, currentRevision, isUniqueViolation, recordAudit } from '../audit';
import type { AppVersionsTable } from './schema';

/** A release as the apps' update check reads it. */
export interface TRelease {
  version: string;
  buildNumber: number;
  forceUpdate: boolean;
  minSupportedVersion: string | null;
  notes: Record<string, string>;
  downloadUrl: string;
  releasedAt: string;
}

export interface TVersionInput extends TRelease {
  id?: string | undefined;
  revision?: number | undefined;
  platform: TAppPlatform;
}

interface TVersionRow {
  id: string;
  platform: AppVersionsTable['platform'];
  version: string;
  build_number: number;
  force_update: boolean;
  min_supported_version: string | null;
  notes: Record<string, string>;
  download_url: string;
  released_at: Date;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export const versionOf = (row: TVersionRow) => ({
  id: row.id,
  platform: row.platform,
  version: row.version,
  buildNumber: row.build_number,
  forceUpdate: row.force_update,
  minSupportedVersion: row.min_supported_version,
  notes: row.notes ?? {},
  downloadUrl: row.download_url,
  releasedAt: iso(row.released_at),
  revision: row.revision,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
export type TAppVersion = ReturnType<typeof versionOf>;

const COLUMNS = [
  'id',
  'platform',
  'version',
  'build_number',
  'force_update',
  'min_supported_version',
  'notes',
  'download_url',
  'released_at',
  'revision',
  'created_at',
  'updated_at',
] as const;

/** The broker's releases, by platform and newest version first. */
export async function listVersions({ db }: { db: TDb }, { actor }: { actor: TActor }) {
  const rows = await db
    .selectFrom('app_versions')
    .select(COLUMNS)
    .where('tenant_id', '=', actor.tenantId)
    .execute();
  const versions = rows.map(versionOf);
  versions.sort((a, b) => a.platform.localeCompare(b.platform) || compareSemver(b.version, a.version));
  return { versions };
}

/**
 * Rules beyond the shapes: zh-CN and en notes are required, other keys must be route languages;
 * the minimum supported version cannot be above the release itself.
 */
function checkVersion(input: TVersionInput): Record<string, string> {
  const notes: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const [locale, text] of Object.entries(input.notes)) {
    if (!isLocaleCode(locale)) problems[`notes.${locale}`] = 'invalid';
    else if (text.trim()) notes[locale] = text.trim();
  }
  for (const locale of RELEASE_NOTE_LOCALES) if (!notes[locale]) problems[`notes.${locale}`] = 'required';
  if (input.minSupportedVersion && compareSemver(input.minSupportedVersion, input.version) > 0)
    problems.minSupportedVersion = 'invalid';
  input.notes = notes;
  return problems;
}

/** Creates or edits a release; -6014 when the platform already has this version, -6017 when stale. */
export async function saveVersion(
  { db }: { db: TDb },
  { actor, ...input }: TVersionInput & { actor: TActor },
): Promise<TAppVersion> {
  const problems = checkVersion(input);
  if (Object.keys(problems).length) throw AppError.invalid(problems);
  const { tenantId } = actor;
  const values = {
    platform: input.platform,
    version: input.version,
    build_number: input.buildNumber,
    force_update: input.forceUpdate,
    min_supported_version: input.minSupportedVersion,
    notes: JSON.stringify(input.notes),
    download_url: input.downloadUrl,
    released_at: new Date(input.releasedAt),
  };
  try {
    return await db.transaction().execute(async (trx) => {
      const siblings = await trx
        .selectFrom('app_versions')
        .select(['id', 'version'])
        .where('tenant_id', '=', tenantId)
        .where('platform', '=', input.platform)
        .execute();
      if (siblings.some((s) => s.id !== input.id && compareSemver(s.version, input.version) === 0))
        throw new AppError(AppErrorCode.VERSION_EXISTS, { version: input.version });
      if (!input.id) {
        const row = await trx
          .insertInto('app_versions')
          .values({ id: newId(), tenant_id: tenantId, ...values })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        const saved = versionOf(row);
        await recordAudit(trx, {
          ...auditedActor(actor),
          action: 'versions.create',
          target: `${saved.platform} ${saved.version}`,
          details: { id: saved.id, ...auditedFields(saved) },
        });
        return saved;
      }
      const before = currentRevision(
        await trx
          .selectFrom('app_versions')
          .select(COLUMNS)
          .where('tenant_id', '=', tenantId)
          .where('id', '=', input.id)
          .forUpdate()
          .executeTakeFirst(),
        input.revision,
      );
      const row = await trx
        .updateTable('app_versions')
        .set({ ...values, revision: before.revision + 1, updated_at: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', input.id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      const saved = versionOf(row);
      await recordAudit(trx, {
        ...auditedActor(actor),
        action: 'versions.update',
        target: `${saved.platform} ${saved.version}`,
        details: { id: saved.id, changes: changes(auditedFields(versionOf(before)), auditedFields(saved)) },
      });
      return saved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.VERSION_EXISTS, { version: input.version });
    throw error;
  }
}

/** The fields a release's history entry shows. */
function auditedFields(version: TAppVersion): Record<string, unknown> {
  return {
    platform: version.platform,
    version: version.version,
    buildNumber: version.buildNumber,
    forceUpdate: version.forceUpdate,
    minSupportedVersion: version.minSupportedVersion,
    notes: version.notes,
    downloadUrl: version.downloadUrl,
    releasedAt: version.releasedAt,
  };
}

export async function deleteVersion({ db }: { db: TDb }, { actor, id }: { actor: TActor; id: string }) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('app_versions')
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) throw new AppError(AppErrorCode.RECORD_NOT_FOUND);
    const removed = versionOf(row);
    await recordAudit(trx, {
      ...auditedActor(actor),
      action: 'versions.delete',
      target: `${removed.platform} ${removed.version}`,
      details: { id: removed.id, ...auditedFields(removed) },
    });
  });
  return { ok: true as const };
}

/**
 * The apps' update check for one platform. Releases dated in the future are not offered yet. The
 * latest is the highest version released; an update is available when it is above the app's
 * version, and forced when the app is below the latest release's minimum supported version, or
 * when any released version above the app's is marked force-update.
 */
export function updateVerdict(releases: readonly TRelease[], current: string, locale: string, now: number) {
  const live = releases.filter((r) => Date.parse(r.releasedAt) <= now);
  let latest: TRelease | null = null;
  for (const release of live)
    if (!latest || compareSemver(release.version, latest.version) > 0) latest = release;
  if (!latest) return { latest: null, minSupportedVersion: null, updateAvailable: false, forced: false };
  const updateAvailable = compareSemver(latest.version, current) > 0;
  const minimum = latest.minSupportedVersion;
  const forced =
    updateAvailable &&
    ((minimum !== null && compareSemver(current, minimum) < 0) ||
      live.some((r) => r.forceUpdate && compareSemver(r.version, current) > 0));
  const notes =
    latest.notes[locale] ??
    latest.notes[FALLBACK_LOCALE] ??
    latest.notes['zh-CN'] ??
    Object.values(latest.notes)[0] ??
    '';
  return {
    latest: {
      version: latest.version,
      buildNumber: latest.buildNumber,
      notes,
      downloadUrl: latest.downloadUrl,
      releasedAt: latest.releasedAt,
      forceUpdate: latest.forceUpdate,
    },
    minSupportedVersion: minimum,
    updateAvailable,
    forced,
  };
}

/** The public update check: the broker's releases of the platform, judged for the app's version. */
export async function checkForUpdate(
  { db }: { db: TDb },
  {
    tenantId,
    platform,
    version,
    locale,
    now = Date.now(),
  }: { tenantId: string; platform: TAppPlatform; version: string; locale: string; now?: number },
) {
  const rows = await db
    .selectFrom('app_versions')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('platform', '=', platform)
    .execute();
  return updateVerdict(rows.map(versionOf), version, locale, now);
}
