import type { TAreaPages } from '../types';
import { BrokersPage } from './BrokersPage';
import { MenusPage } from './MenusPage';
import { RolesPage } from './RolesPage';
import { StaffPage } from './StaffPage';

/** The access area's pages, by menu key; each page handles the paths under its menu path. */
export const ACCESS_PAGES: TAreaPages = {
  roles: RolesPage,
  staff: StaffPage,
  menus: MenusPage,
  brokers: BrokersPage,
};
