/** The files module's public face: the only file other modules and the HTTP layer import. */
export type { TUploadPorts, TUploadRef } from './chunked';
export {
  ABANDONED_AFTER_MS,
  CHUNK_MAX_BYTES,
  cleanAbandonedUploads,
  MAX_CHUNKS,
  mergeUpload,
  receiveChunk,
  uploadState,
} from './chunked';
export type { TFileMime, TFilePurpose } from './files';
export {
  brokerFiles,
  checkFile,
  FILE_LIMITS,
  FILE_PURPOSES,
  filesDir,
  filesOf,
  fileUrl,
  isFilePurpose,
  MAX_UPLOAD_BYTES,
  Meter,
  ownedFiles,
  recordStoredFile,
  sniffFile,
  sniffMime,
  staffFileUrl,
  storedFile,
} from './files';
