import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/columns';

export type TStoredPurpose = 'avatar' | 'feedback' | 'kyc';

export interface StoredFilesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  purpose: TStoredPurpose;
  mime: 'image/jpeg' | 'image/png' | 'video/mp4' | 'video/x-msvideo';
  size_bytes: ColumnType<string, number, number>;
  sha256: string;
  created_at: Timestamp;
}

/** A chunked upload in progress (or merged, until it is cleaned a day later). */
export interface UploadSessionsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  /** The id the client chose for the upload (a UUID). */
  client_id: string;
  purpose: TStoredPurpose;
  total: number;
  received: Generated<number>;
  bytes: ColumnType<string, number | undefined, number | string>;
  merging_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  file_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UploadChunksTable {
  upload_id: string;
  chunk_index: number;
  bytes: number;
}

/** The tables the files module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TFilesSchema {
  stored_files: StoredFilesTable;
  upload_sessions: UploadSessionsTable;
  upload_chunks: UploadChunksTable;
}
