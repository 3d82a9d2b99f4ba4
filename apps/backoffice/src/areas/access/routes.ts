import { ACCESS_PATHS } from '@broker/contracts/admin/access-paths';
import { change, read, type TAreaRoutes } from '../types';

/** The access area's calls (route name to path and whether it changes state). */
export const ACCESS_ROUTES = {
  adminrolelist: read(ACCESS_PATHS.adminrolelist),
  adminrolesave: change(ACCESS_PATHS.adminrolesave),
  adminroledelete: change(ACCESS_PATHS.adminroledelete),
  adminstafflist: read(ACCESS_PATHS.adminstafflist),
  adminstaffcreate: change(ACCESS_PATHS.adminstaffcreate),
  adminstaffupdate: change(ACCESS_PATHS.adminstaffupdate),
  adminstaffstatus: change(ACCESS_PATHS.adminstaffstatus),
  adminstaffunlock: change(ACCESS_PATHS.adminstaffunlock),
  adminstaffpassword: change(ACCESS_PATHS.adminstaffpassword),
  adminstafftotpreset: change(ACCESS_PATHS.adminstafftotpreset),
  adminstaffsettings: change(ACCESS_PATHS.adminstaffsettings),
  adminstaffsettingsapprove: change(ACCESS_PATHS.adminstaffsettingsapprove),
  adminstaffsettingsreject: change(ACCESS_PATHS.adminstaffsettingsreject),
  adminstaffsettingscancel: change(ACCESS_PATHS.adminstaffsettingscancel),
  adminmenuget: read(ACCESS_PATHS.adminmenuget),
  adminmenusave: change(ACCESS_PATHS.adminmenusave),
  adminbrokerlist: read(ACCESS_PATHS.adminbrokerlist),
  adminbrokercreate: change(ACCESS_PATHS.adminbrokercreate),
  adminbrokerupdate: change(ACCESS_PATHS.adminbrokerupdate),
  adminbrokerstatus: change(ACCESS_PATHS.adminbrokerstatus),
  adminmysecurity: read(ACCESS_PATHS.adminmysecurity),
  adminmytotpbegin: change(ACCESS_PATHS.adminmytotpbegin),
  adminmytotpenable: change(ACCESS_PATHS.adminmytotpenable),
  adminmytotpdisable: change(ACCESS_PATHS.adminmytotpdisable),
  adminmypassword: change(ACCESS_PATHS.adminmypassword),
  adminenrolstart: read(ACCESS_PATHS.adminenrolstart),
  adminenrolconfirm: change(ACCESS_PATHS.adminenrolconfirm),
} as const satisfies TAreaRoutes;
