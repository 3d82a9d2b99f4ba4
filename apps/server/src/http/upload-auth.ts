import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyRequest } from 'fastify';
import { staffProfile } from '../modules/access';
import { applyPackage } from '../modules/entitlements';
import { findSession } from '../modules/identity';
import type { TTenant } from '../modules/tenancy';
import { COOKIE, type TServices } from './context';
import { checkStateChange } from './gateway';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The same checks as a gateway call for uploads, whose body is the file itself: the broker from
 * the `Hostspecific` header or the host, the trader session cookie, a same-origin Origin and the
 * session's CSRF token in its header.
 */
export async function authenticateUpload(
  services: TServices,
  request: FastifyRequest,
): Promise<{ tenant: TTenant; userId: string }> {
  const tenant = await services.resolveTenant({
    host: request.headers.host,
    hostspecific: header(request, 'hostspecific') || undefined,
  });
  const token = request.cookies[COOKIE.userToken];
  const session = token
    ? await findSession({ db: services.database.db, token, subjectKind: 'user', tenantId: tenant.id })
    : null;
  if (!session) throw new AppError(AppErrorCode.TOKEN_INVALID);
  checkStateChange(request, session);
  return { tenant, userId: session.subjectId };
}

/**
 * The checks of a staff gateway call for a back-office file (a GET, so no CSRF token): the broker,
 * the staff session cookie, the broker's package and the permission.
 */
export async function authenticateStaff(
  services: TServices,
  request: FastifyRequest,
  permission: string,
): Promise<{ tenant: TTenant; staffId: string }> {
  const tenant = await services.resolveTenant({
    host: request.headers.host,
    hostspecific: header(request, 'hostspecific') || undefined,
  });
  const token = request.cookies[COOKIE.staffToken];
  const session = token
    ? await findSession({ db: services.database.db, token, subjectKind: 'staff', tenantId: tenant.id })
    : null;
  const staff = session
    ? await staffProfile({ db: services.database.db, staffId: session.subjectId, tenantId: tenant.id })
    : null;
  if (!staff) throw new AppError(AppErrorCode.TOKEN_INVALID);
  await applyPackage({ db: services.database.db, tenantId: tenant.id, staff, permission });
  if (!staff.permissions.includes(permission)) throw new AppError(AppErrorCode.FORBIDDEN);
  return { tenant, staffId: staff.staffId };
}
