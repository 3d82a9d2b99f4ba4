import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { FastifyRequest } from 'fastify';
import { COOKIE, type TServices } from '../../http/context';
import { checkStateChange } from '../../http/gateway';
import { findSession } from '../identity/sessions';
import type { TTenant } from '../tenancy/tenancy';

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
