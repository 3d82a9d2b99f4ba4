import {
  closeSync,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** How a sandbox part reports what it cannot do (pino's `warn(detail, message)` fits). */
export interface TSandboxLog {
  warn(detail: Record<string, unknown>, message: string): void;
}

/**
 * An append-only JSON-lines file, each line synced to disk before `append` returns, so a line that
 * was answered for survives a SIGKILL or a power cut. A kill can leave only the last line half
 * written (appends go to the end of the file): opening cuts it off, since what it recorded was never
 * answered for.
 */
export class Journal<TEntry extends object> {
  private fd: number | null;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Opens (or creates) the journal and answers the entries it holds, in the order written. */
  static open<TEntry extends object>(
    path: string,
    log?: TSandboxLog,
  ): { journal: Journal<TEntry>; entries: TEntry[] } {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const bytes = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
    const complete = bytes.lastIndexOf(0x0a) + 1;
    const fd = openSync(path, 'a', 0o600);
    if (complete < bytes.length) {
      ftruncateSync(fd, complete);
      log?.warn({ path }, 'sandbox journal: cut off a half-written last line');
    }
    const entries: TEntry[] = [];
    for (const [index, line] of bytes.subarray(0, complete).toString('utf8').split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        // Our own file, written by `append` below: trusted to hold what was appended.
        entries.push(JSON.parse(line) as TEntry);
      } catch {
        log?.warn({ path, line: index + 1 }, 'sandbox journal: skipped an unreadable line');
      }
    }
    return { journal: new Journal<TEntry>(path, fd), entries };
  }

  append(entry: TEntry): void {
    if (this.fd === null) throw new Error(`sandbox journal ${this.path} is closed`);
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fdatasyncSync(this.fd);
  }

  get closed(): boolean {
    return this.fd === null;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
