export type {
  ByteChunks,
  WriteData,
  FileEntry,
  FileStore,
  FinishedMove,
  FolderScan,
  ListOptions,
  MoveOutcome,
  OtherEntry,
  OtherKind,
} from './file-store.js';
export { LocalFileStore } from './local-file-store.js';
export { longerThanListed } from './entry-kind.js';
export { SftpFileStore, type SftpFileStoreOptions } from './sftp-file-store.js';
export { fetchHostKey, fetchHostKeyFingerprint } from './sftp-connect.js';
export { describeHostKey, normalizeFingerprint, type HostKeyInfo } from './host-key.js';
export { checkFileName, checkRelativePath, joinPath, normalizeRelativePath, splitPath } from './safe-path.js';
export {
  AHEAD_TOLERANCE_MS,
  globToRegExp,
  isTemporaryName,
  monotonicMs,
  takeStableFiles,
  type EarlierLook,
  type SkippedFile,
  type StableFiles,
  type StableFilesOptions,
} from './stable-files.js';
