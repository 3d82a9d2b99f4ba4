import type { TAreaPages } from '../types';
import { OperationsPage } from './OperationsPage';
import { PackagesPage } from './PackagesPage';
import { StatisticsPage } from './StatisticsPage';
import { VersionsPage } from './VersionsPage';

/** The audit area's pages, by menu key; each page handles the paths under its menu path. */
export const AUDIT_PAGES: TAreaPages = {
  operations: OperationsPage,
  statistics: StatisticsPage,
  versions: VersionsPage,
  packages: PackagesPage,
};
