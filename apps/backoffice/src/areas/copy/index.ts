import type { TAreaPages } from '../types';
import { CopyPage } from './CopyPage';

/** The copy-trading area's pages, by menu key; each page handles the paths under its menu path. */
export const COPY_PAGES: TAreaPages = { copy: CopyPage };
