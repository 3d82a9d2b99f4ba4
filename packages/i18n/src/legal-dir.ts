import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the legal texts (Markdown), one sub-folder per written language. */
export const LEGAL_DIR = join(dirname(fileURLToPath(import.meta.url)), '../legal');
