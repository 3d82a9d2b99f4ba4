/** Router paths of the area (relative to /admin). */
export const CUSTOMERS_BASE = '/users';
export const customerPath = (userId: string) => `${CUSTOMERS_BASE}/${encodeURIComponent(userId)}`;
export const APPROVALS_PATH = `${CUSTOMERS_BASE}/approvals`;
