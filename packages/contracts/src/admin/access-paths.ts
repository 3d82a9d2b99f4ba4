/** Paths of the back office's access routes (schema-free, for the browser). */
export const ACCESS_PATHS = {
  adminrolelist: '/api/v1/admin/access/role/list',
  adminrolesave: '/api/v1/admin/access/role/save',
  adminroledelete: '/api/v1/admin/access/role/delete',
  adminstafflist: '/api/v1/admin/access/staff/list',
  adminstaffcreate: '/api/v1/admin/access/staff/create',
  adminstaffupdate: '/api/v1/admin/access/staff/update',
  adminstaffstatus: '/api/v1/admin/access/staff/status',
  adminstaffunlock: '/api/v1/admin/access/staff/unlock',
  adminstaffpassword: '/api/v1/admin/access/staff/password',
  adminstafftotpreset: '/api/v1/admin/access/staff/totp_reset',
  adminstaffsettings: '/api/v1/admin/access/staff/settings',
  adminstaffsettingsapprove: '/api/v1/admin/access/staff/settings/approve',
  adminstaffsettingsreject: '/api/v1/admin/access/staff/settings/reject',
  adminstaffsettingscancel: '/api/v1/admin/access/staff/settings/cancel',
  adminmenuget: '/api/v1/admin/access/menu/get',
  adminmenusave: '/api/v1/admin/access/menu/save',
  adminbrokerlist: '/api/v1/admin/access/broker/list',
  adminbrokercreate: '/api/v1/admin/access/broker/create',
  adminbrokerupdate: '/api/v1/admin/access/broker/update',
  adminbrokerstatus: '/api/v1/admin/access/broker/status',
  // The signed-in staff member's own security (no permission needed) and the sign-in enrolment step.
  adminmysecurity: '/api/v1/admin/auth/security',
  adminmytotpbegin: '/api/v1/admin/auth/totp/begin',
  adminmytotpenable: '/api/v1/admin/auth/totp/enable',
  adminmytotpdisable: '/api/v1/admin/auth/totp/disable',
  adminmypassword: '/api/v1/admin/auth/password',
  adminenrolstart: '/api/v1/admin/auth/enrol/start',
  adminenrolconfirm: '/api/v1/admin/auth/enrol/confirm',
} as const;

/** A broker's short name (its slug): lowercase letters, digits and inner hyphens, 1 to 40 characters. */
export const BROKER_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A host name a broker's sites answer on (lowercase, no port). */
export const HOST_NAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
