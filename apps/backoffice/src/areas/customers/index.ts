import type { TAreaPages } from '../types';
import { CustomersPage } from './CustomersPage';

/** The customers area's pages, by menu key; each page handles the paths under its menu path. */
export const CUSTOMERS_PAGES: TAreaPages = { users: CustomersPage };
