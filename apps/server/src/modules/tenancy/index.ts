/** The tenancy module's public face: the only file other modules and the HTTP layer import. */

export {
  hostOwners,
  isDefaultTenant,
  otherTenant,
  otherTenants,
  tenantIds,
  tenantSlugTaken,
  tenantStatus,
  tenantsWithHosts,
  visibleTenantCount,
} from './queries';
export type { TTenant } from './tenancy';
export { ensureDefaultTenant, TenantResolver } from './tenancy';
export { addTenant, setTenantStatus, updateTenant } from './tenant-admin';
