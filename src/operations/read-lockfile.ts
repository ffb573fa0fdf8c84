// The reader lives on the documents floor so the catalogue assembler can read a lockfile; this name stays for the service's imports.
export { type LockfileReading, readLockfileText } from '../documents/read-lockfile.js';
