import {
  STAFF_PASSWORD_MAX_LENGTH,
  STAFF_PASSWORD_MIN_LENGTH,
  STAFF_USERNAME_PATTERN,
} from '@broker/domain/staff-credentials';
import { z } from 'zod';
import { define, empty } from '../route-kit';
import { ACCESS_PATHS, BROKER_SLUG_PATTERN, HOST_NAME_PATTERN } from './access-paths';

const ZId = z.string().min(1).max(64);
const ZOtp = z.string().regex(/^\d{6}$/, 'otpFormat');
const ZUsername = z.string().trim().regex(STAFF_USERNAME_PATTERN, 'usernameFormat');
/** The product's floor (spec 5); the broker's own minimum is checked by the server (-6006). */
const ZPassword = z
  .string()
  .min(STAFF_PASSWORD_MIN_LENGTH, 'passwordTooShort')
  .max(STAFF_PASSWORD_MAX_LENGTH);
const ZPermission = z.string().min(1).max(64);
const ZTime = z.string();

/** One side-menu section: an optional heading and its menu keys in order. */
export const ZMenuSection = z.object({
  title: z.string().trim().max(40).nullable(),
  keys: z.array(z.string().min(1).max(40)).max(60),
});
export type TMenuSection = z.infer<typeof ZMenuSection>;

/** The signed-in staff member as the back office keeps it (sign-in, enrolment and adminme answers). */
export const ZStaffSession = z.object({
  staffId: z.string(),
  username: z.string(),
  displayName: z.string(),
  tenantId: z.string(),
  roles: z.array(z.string()),
  /** Effective permissions: own roles and every parent role, limited to what the broker may grant. */
  permissions: z.array(z.string()),
  twoFactor: z.boolean(),
  /** The staff member's roles move money and the broker requires two-factor for that. */
  twoFactorRequired: z.boolean(),
  /** The broker's arranged side menu, already limited to this staff member's permissions. */
  menu: z.array(ZMenuSection),
});
export type TStaffSession = z.infer<typeof ZStaffSession>;

export const ZStaffSignedIn = z.object({
  csrfToken: z.string(),
  expiresAt: z.string(),
  staff: ZStaffSession,
});

export const ZRole = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  parentId: z.string().nullable(),
  /** Holds every permission the broker may grant, now and later; not editable or deletable. */
  isSystem: z.boolean(),
  /** The role's own permissions (a system role: every grantable one). */
  permissions: z.array(z.string()),
  /** Own permissions plus those inherited from parent roles. */
  effective: z.array(z.string()),
  staffCount: z.number().int(),
  childCount: z.number().int(),
  createdAt: ZTime,
});
export type TRole = z.infer<typeof ZRole>;

export const ZStaffRow = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  status: z.enum(['active', 'disabled']),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Holds the broker's system (administrator) role. */
  isAdministrator: z.boolean(),
  twoFactor: z.boolean(),
  lastSignInAt: ZTime.nullable(),
  /** Set while a lockout after repeated failed sign-ins lasts. */
  lockedUntil: ZTime.nullable(),
  failedAttempts: z.number().int(),
  createdAt: ZTime,
});
export type TStaffRow = z.infer<typeof ZStaffRow>;

export const ZAccessSettings = z.object({
  /** The broker's minimum staff password length, 5 to 32. */
  passwordMinLength: z.number().int().min(STAFF_PASSWORD_MIN_LENGTH).max(32),
  /** Staff whose permissions move money must sign in with two-factor. */
  moneyTwoFactor: z.boolean(),
});
export type TAccessSettings = z.infer<typeof ZAccessSettings>;

/**
 * A change of the sign-in rules that weakens one of them (a lower minimum, money two-factor off):
 * it waits until a second staff member holding `staff.security` approves it. At most one waits per
 * broker.
 */
export const ZAccessPolicyRequest = z.object({
  id: z.string(),
  /** The rules as they will be once approved (both values, not only the weakened one). */
  settings: ZAccessSettings,
  requestedBy: z.object({ id: z.string(), username: z.string(), displayName: z.string() }),
  requestedAt: ZTime,
  status: z.enum(['pending', 'approved', 'rejected', 'cancelled']),
  decidedBy: z.string().nullable(),
  decidedAt: ZTime.nullable(),
});
export type TAccessPolicyRequest = z.infer<typeof ZAccessPolicyRequest>;

/** The rules in force and the request a save or decision concerns (null when a save applied at once). */
const ZAccessPolicyAnswer = z.object({
  settings: ZAccessSettings,
  request: ZAccessPolicyRequest.nullable(),
});

const ZMenuLayout = z.object({
  sections: z.array(ZMenuSection),
  hidden: z.array(z.string()),
  /** Menu keys this broker can arrange, in the product's order. */
  entries: z.array(z.string()),
  updatedAt: ZTime.nullable(),
});

const ZHost = z.string().trim().toLowerCase().regex(HOST_NAME_PATTERN);

export const ZBroker = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  hosts: z.array(z.string()),
  status: z.enum(['active', 'suspended']),
  /** The platform operator's own broker. */
  isDefault: z.boolean(),
  staffCount: z.number().int(),
  customerCount: z.number().int(),
  createdAt: ZTime,
});
export type TBroker = z.infer<typeof ZBroker>;

const ZHosts = z
  .array(ZHost)
  .min(1)
  .max(10)
  .refine((hosts) => new Set(hosts).size === hosts.length);

/** The back office's access routes: each names the permission it needs. */
export const accessRoutes = {
  adminrolelist: define({
    name: 'adminrolelist',
    path: ACCESS_PATHS.adminrolelist,
    access: { kind: 'staff', permission: 'roles.view' },
    mutates: false,
    summary: "The broker's roles with their parent, own and inherited permissions",
    input: empty,
    output: z.object({ roles: z.array(ZRole), grantable: z.array(z.string()) }),
  }),
  adminrolesave: define({
    name: 'adminrolesave',
    path: ACCESS_PATHS.adminrolesave,
    access: { kind: 'staff', permission: 'roles.edit' },
    mutates: true,
    summary: 'Creates a role (no id) or changes one: name, parent role, menu and button permissions',
    input: z.object({
      id: ZId.optional(),
      name: z.string().trim().min(1).max(40),
      description: z.string().trim().max(200).default(''),
      parentId: ZId.nullable(),
      permissions: z.array(ZPermission).max(300),
    }),
    output: ZRole,
  }),
  adminroledelete: define({
    name: 'adminroledelete',
    path: ACCESS_PATHS.adminroledelete,
    access: { kind: 'staff', permission: 'roles.edit' },
    mutates: true,
    summary: 'Deletes a role no staff member or child role uses',
    input: z.object({ id: ZId }),
    output: z.object({ ok: z.literal(true) }),
  }),
  adminstafflist: define({
    name: 'adminstafflist',
    path: ACCESS_PATHS.adminstafflist,
    access: { kind: 'staff', permission: 'staff.view' },
    mutates: false,
    summary:
      "The broker's staff with roles, status, two-factor, last sign-in and lockout; the roles to assign",
    input: empty,
    output: z.object({
      staff: z.array(ZStaffRow),
      roles: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          isSystem: z.boolean(),
          permissions: z.array(z.string()),
        }),
      ),
      settings: ZAccessSettings,
      /** The weakening change of the sign-in rules that waits for a second approver, if any. */
      policyRequest: ZAccessPolicyRequest.nullable(),
      selfId: z.string(),
    }),
  }),
  adminstaffcreate: define({
    name: 'adminstaffcreate',
    path: ACCESS_PATHS.adminstaffcreate,
    access: { kind: 'staff', permission: 'staff.edit' },
    mutates: true,
    summary: 'Creates a staff member with an initial password and roles',
    input: z.object({
      username: ZUsername,
      displayName: z.string().trim().min(1).max(60),
      password: ZPassword,
      roleIds: z.array(ZId).max(20),
    }),
    output: ZStaffRow,
  }),
  adminstaffupdate: define({
    name: 'adminstaffupdate',
    path: ACCESS_PATHS.adminstaffupdate,
    access: { kind: 'staff', permission: 'staff.edit' },
    mutates: true,
    summary: "Changes a staff member's display name and roles",
    input: z.object({
      id: ZId,
      displayName: z.string().trim().min(1).max(60),
      roleIds: z.array(ZId).max(20),
    }),
    output: ZStaffRow,
  }),
  adminstaffstatus: define({
    name: 'adminstaffstatus',
    path: ACCESS_PATHS.adminstaffstatus,
    access: { kind: 'staff', permission: 'staff.edit' },
    mutates: true,
    summary: 'Disables (ending their sessions) or enables a staff member',
    input: z.object({ id: ZId, status: z.enum(['active', 'disabled']) }),
    output: ZStaffRow,
  }),
  adminstaffunlock: define({
    name: 'adminstaffunlock',
    path: ACCESS_PATHS.adminstaffunlock,
    access: { kind: 'staff', permission: 'staff.edit' },
    mutates: true,
    summary: 'Ends a lockout after failed sign-ins',
    input: z.object({ id: ZId }),
    output: ZStaffRow,
  }),
  adminstaffpassword: define({
    name: 'adminstaffpassword',
    path: ACCESS_PATHS.adminstaffpassword,
    access: { kind: 'staff', permission: 'staff.edit' },
    mutates: true,
    summary: "Sets a staff member's password (or generates one, shown once) and ends their sessions",
    input: z.object({ id: ZId, password: ZPassword.optional() }),
    output: z.object({ generated: z.string().nullable() }),
  }),
  adminstafftotpreset: define({
    name: 'adminstafftotpreset',
    path: ACCESS_PATHS.adminstafftotpreset,
    access: { kind: 'staff', permission: 'staff.edit' },
    mutates: true,
    summary: "Turns off a staff member's two-factor (a lost phone) and ends their sessions",
    input: z.object({ id: ZId }),
    output: ZStaffRow,
  }),
  adminstaffsettings: define({
    name: 'adminstaffsettings',
    path: ACCESS_PATHS.adminstaffsettings,
    access: { kind: 'staff', permission: 'staff.security' },
    mutates: true,
    summary:
      "Changes the broker's staff password minimum and money two-factor rule: a stronger rule applies at once, a weaker one waits for a second approver",
    input: ZAccessSettings,
    output: ZAccessPolicyAnswer,
  }),
  adminstaffsettingsapprove: define({
    name: 'adminstaffsettingsapprove',
    path: ACCESS_PATHS.adminstaffsettingsapprove,
    access: { kind: 'staff', permission: 'staff.security' },
    mutates: true,
    summary: 'Approves the waiting change of the sign-in rules (not its requester) and applies it',
    input: z.object({ id: ZId }),
    output: ZAccessPolicyAnswer,
  }),
  adminstaffsettingsreject: define({
    name: 'adminstaffsettingsreject',
    path: ACCESS_PATHS.adminstaffsettingsreject,
    access: { kind: 'staff', permission: 'staff.security' },
    mutates: true,
    summary: 'Rejects the waiting change of the sign-in rules (not its requester); nothing changes',
    input: z.object({ id: ZId }),
    output: ZAccessPolicyAnswer,
  }),
  adminstaffsettingscancel: define({
    name: 'adminstaffsettingscancel',
    path: ACCESS_PATHS.adminstaffsettingscancel,
    access: { kind: 'staff', permission: 'staff.security' },
    mutates: true,
    summary: 'Withdraws the own waiting change of the sign-in rules',
    input: z.object({ id: ZId }),
    output: ZAccessPolicyAnswer,
  }),
  adminmenuget: define({
    name: 'adminmenuget',
    path: ACCESS_PATHS.adminmenuget,
    access: { kind: 'staff', permission: 'menus.view' },
    mutates: false,
    summary: "The broker's side menu: sections, order and hidden entries",
    input: empty,
    output: ZMenuLayout,
  }),
  adminmenusave: define({
    name: 'adminmenusave',
    path: ACCESS_PATHS.adminmenusave,
    access: { kind: 'staff', permission: 'menus.edit' },
    mutates: true,
    summary: "Arranges the broker's side menu for everyone",
    input: z.object({
      sections: z.array(ZMenuSection).min(1).max(20),
      hidden: z.array(z.string().min(1).max(40)).max(60),
    }),
    output: ZMenuLayout,
  }),
  adminbrokerlist: define({
    name: 'adminbrokerlist',
    path: ACCESS_PATHS.adminbrokerlist,
    access: { kind: 'staff', permission: 'brokers.view' },
    mutates: false,
    summary: 'Every broker of the platform with host names, status and head counts',
    input: empty,
    output: z.object({ brokers: z.array(ZBroker) }),
  }),
  adminbrokercreate: define({
    name: 'adminbrokercreate',
    path: ACCESS_PATHS.adminbrokercreate,
    access: { kind: 'staff', permission: 'brokers.edit' },
    mutates: true,
    summary: 'Creates a broker: its host names, instruments, default account group and first administrator',
    input: z.object({
      name: z.string().trim().min(1).max(80),
      slug: z.string().trim().regex(BROKER_SLUG_PATTERN),
      hosts: ZHosts,
      adminUsername: ZUsername,
      adminPassword: ZPassword,
    }),
    output: ZBroker,
  }),
  adminbrokerupdate: define({
    name: 'adminbrokerupdate',
    path: ACCESS_PATHS.adminbrokerupdate,
    access: { kind: 'staff', permission: 'brokers.edit' },
    mutates: true,
    summary: 'Renames a broker and replaces its host names',
    input: z.object({ id: ZId, name: z.string().trim().min(1).max(80), hosts: ZHosts }),
    output: ZBroker,
  }),
  adminbrokerstatus: define({
    name: 'adminbrokerstatus',
    path: ACCESS_PATHS.adminbrokerstatus,
    access: { kind: 'staff', permission: 'brokers.edit' },
    mutates: true,
    summary: 'Suspends a broker (its sites and sessions stop) or reactivates it',
    input: z.object({ id: ZId, status: z.enum(['active', 'suspended']) }),
    output: ZBroker,
  }),
  adminmysecurity: define({
    name: 'adminmysecurity',
    path: ACCESS_PATHS.adminmysecurity,
    access: { kind: 'staff', permission: null },
    mutates: false,
    summary: "The signed-in staff member's own two-factor state and the broker's password minimum",
    input: empty,
    output: z.object({
      twoFactor: z.boolean(),
      twoFactorRequired: z.boolean(),
      passwordMinLength: z.number().int(),
    }),
  }),
  adminmytotpbegin: define({
    name: 'adminmytotpbegin',
    path: ACCESS_PATHS.adminmytotpbegin,
    access: { kind: 'staff', permission: null },
    mutates: true,
    summary: 'Starts turning on two-factor for oneself: a new secret and its otpauth:// address',
    input: empty,
    output: z.object({ secret: z.string(), otpauthUrl: z.string() }),
  }),
  adminmytotpenable: define({
    name: 'adminmytotpenable',
    path: ACCESS_PATHS.adminmytotpenable,
    access: { kind: 'staff', permission: null },
    mutates: true,
    summary: 'Turns on two-factor for oneself once a code from the app confirms the new secret',
    input: z.object({ code: ZOtp }),
    output: z.object({ twoFactor: z.boolean() }),
  }),
  adminmytotpdisable: define({
    name: 'adminmytotpdisable',
    path: ACCESS_PATHS.adminmytotpdisable,
    access: { kind: 'staff', permission: null },
    mutates: true,
    summary: 'Turns off two-factor for oneself with a current code (refused when it is required)',
    input: z.object({ code: ZOtp }),
    output: z.object({ twoFactor: z.boolean() }),
  }),
  adminmypassword: define({
    name: 'adminmypassword',
    path: ACCESS_PATHS.adminmypassword,
    access: { kind: 'staff', permission: null },
    mutates: true,
    summary: "Changes one's own password; other sessions end",
    input: z.object({ oldPassword: z.string().min(1).max(STAFF_PASSWORD_MAX_LENGTH), password: ZPassword }),
    output: z.object({ ok: z.literal(true) }),
  }),
  adminenrolstart: define({
    name: 'adminenrolstart',
    path: ACCESS_PATHS.adminenrolstart,
    access: { kind: 'public' },
    mutates: false,
    summary:
      'The two-factor secret to set up after a right password, for staff who must have it (enrolment cookie)',
    input: empty,
    output: z.object({
      username: z.string(),
      secret: z.string(),
      otpauthUrl: z.string(),
      expiresAt: ZTime,
    }),
  }),
  adminenrolconfirm: define({
    name: 'adminenrolconfirm',
    path: ACCESS_PATHS.adminenrolconfirm,
    access: { kind: 'public' },
    mutates: true,
    summary: 'Confirms the enrolment with a code from the app, turns two-factor on and opens the session',
    input: z.object({ code: ZOtp }),
    output: ZStaffSignedIn,
  }),
} as const;
