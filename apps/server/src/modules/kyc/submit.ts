import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TActor } from '../../actor';
import { newId } from '../../ids';
import { isUniqueViolation, recordAudit } from '../audit';
import { filesOf } from '../files';
import { setKycStatus } from '../identity';
import { kycInfo } from './kyc-info';
import { auditOf, type TKycPorts, traderOf } from './ports';
import type { TKycFileRole, TKycLevel } from './schema';
import { latestSubmissions, type TBasicDetails, type TSeniorDetails } from './submissions';

/** What each file of a submission may be: a document image, or a video, or either (the selfie). */
type TFileKind = 'image' | 'video' | 'any';

interface TFileField {
  field: string;
  role: TKycFileRole;
  fileId: string | null | undefined;
  kind: TFileKind;
}

/**
 * Checks the trader's files: each must be theirs, uploaded for KYC, and of its kind. Answers the
 * roles with their ids; refuses with the fields at fault (`fileUnknown`, `fileKind`).
 */
async function checkFiles(ports: TKycPorts, actor: TActor, userId: string, fields: TFileField[]) {
  const given = fields.filter((f): f is TFileField & { fileId: string } => Boolean(f.fileId));
  const files = await filesOf(ports.db, {
    tenantId: actor.tenantId,
    userId,
    ids: given.map((f) => f.fileId),
    purpose: 'kyc',
  });
  const problems: Record<string, string> = {};
  for (const f of given) {
    const file = files.get(f.fileId);
    if (!file) problems[f.field] = 'fileUnknown';
    else if (f.kind !== 'any' && !file.mime.startsWith(`${f.kind}/`)) problems[f.field] = 'fileKind';
  }
  if (Object.keys(problems).length > 0) throw AppError.invalid(problems);
  return given.map((f) => ({ role: f.role, fileId: f.fileId }));
}

/** A real date of birth: a calendar date, of someone 18 to 120 years old today. */
function checkBirthDate(text: string, now = new Date()) {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  const adult = new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate()));
  const oldest = new Date(Date.UTC(now.getUTCFullYear() - 120, now.getUTCMonth(), now.getUTCDate()));
  if (!real || date > adult || date < oldest) throw AppError.invalid({ birthDate: 'birthDate' });
}

/**
 * Records a waiting submission of the level in one transaction with the trader's state and the
 * audit entry. One submission waits per level (-4201; the database's unique index settles a race
 * of two), an approved level takes none (-4202), a rejected one may be submitted again.
 */
async function submit(
  ports: TKycPorts,
  {
    actor,
    userId,
    level,
    details,
    files,
    locale,
  }: {
    actor: TActor;
    userId: string;
    level: TKycLevel;
    details: TBasicDetails | TSeniorDetails;
    files: { role: TKycFileRole; fileId: string }[];
    locale: string | null;
  },
) {
  const tenantId = actor.tenantId;
  const id = newId();
  try {
    await ports.db.transaction().execute(async (trx) => {
      const latest = await latestSubmissions(trx, { tenantId, userId });
      if (level === 'senior' && latest.basic?.status !== 'approved')
        throw new AppError(AppErrorCode.KYC_BASIC_FIRST);
      const current = latest[level]?.status;
      if (current === 'approved') throw new AppError(AppErrorCode.KYC_ALREADY_APPROVED);
      if (current === 'pending') throw new AppError(AppErrorCode.KYC_PENDING);
      await trx
        .insertInto('kyc_submissions')
        .values({
          id,
          tenant_id: tenantId,
          user_id: userId,
          level,
          details: JSON.stringify(details),
          files: JSON.stringify(files),
          locale,
        })
        .execute();
      if (level === 'basic') await setKycStatus(trx, { tenantId, userId, status: 'pending' });
      await recordAudit(trx, {
        ...auditOf(actor, { level, userId, files: files.map((f) => f.role) }),
        action: 'kyc.submit',
        target: id,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(AppErrorCode.KYC_PENDING);
    throw error;
  }
  return kycInfo(ports, { actor });
}

/**
 * certification (spec 7.6): the trader's identity details with a document (front, and back for a
 * card) and a selfie (an image, or a video), for staff to review.
 */
export async function submitCertification(
  ports: TKycPorts,
  {
    actor,
    locale = null,
    ...input
  }: {
    actor: TActor;
    locale?: string | null;
    firstName: string;
    lastName: string;
    birthDate: string;
    country: string;
    documentType: TBasicDetails['documentType'];
    documentNumber: string;
    frontFileId: string;
    backFileId?: string | null | undefined;
    selfieFileId: string;
  },
) {
  const userId = traderOf(actor);
  checkBirthDate(input.birthDate);
  const files = await checkFiles(ports, actor, userId, [
    { field: 'frontFileId', role: 'front', fileId: input.frontFileId, kind: 'image' },
    { field: 'backFileId', role: 'back', fileId: input.backFileId, kind: 'image' },
    { field: 'selfieFileId', role: 'selfie', fileId: input.selfieFileId, kind: 'any' },
  ]);
  const details: TBasicDetails = {
    firstName: input.firstName,
    lastName: input.lastName,
    birthDate: input.birthDate,
    country: input.country,
    documentType: input.documentType,
    documentNumber: input.documentNumber,
  };
  return submit(ports, { actor, userId, level: 'basic', details, files, locale });
}

/**
 * seniorauth (spec 7.6): proof of address (an image) and a liveness video, once the basic level
 * is approved (-4203 before).
 */
export async function submitSeniorAuth(
  ports: TKycPorts,
  {
    actor,
    locale = null,
    ...input
  }: {
    actor: TActor;
    locale?: string | null;
    addressLine: string;
    city: string;
    postalCode?: string | undefined;
    proofFileId: string;
    videoFileId: string;
  },
) {
  const userId = traderOf(actor);
  const files = await checkFiles(ports, actor, userId, [
    { field: 'proofFileId', role: 'proof', fileId: input.proofFileId, kind: 'image' },
    { field: 'videoFileId', role: 'video', fileId: input.videoFileId, kind: 'video' },
  ]);
  const details: TSeniorDetails = {
    addressLine: input.addressLine,
    city: input.city,
    postalCode: input.postalCode ?? '',
  };
  return submit(ports, { actor, userId, level: 'senior', details, files, locale });
}
