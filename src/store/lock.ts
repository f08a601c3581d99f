import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { LOCK_FILE } from './layout.js';
import { LockFile } from './schemas.js';
import { UserError } from './errors.js';
import { EXIT } from '../util/exit-codes.js';

export interface LockState {
  holder: LockFile | null;
  /** the holder process is gone (same host, pid not alive) */
  stale: boolean;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(root: string): LockState {
  const p = join(root, LOCK_FILE);
  if (!existsSync(p)) return { holder: null, stale: false };
  try {
    const holder = LockFile.parse(JSON.parse(readFileSync(p, 'utf8')));
    const stale = holder.host === hostname() && !pidAlive(holder.pid);
    return { holder, stale };
  } catch {
    return { holder: null, stale: true };
  }
}

/**
 * Take the store's ingest lock (O_EXCL create). A lock left by a dead process on this host is
 * taken over; a live one is refused with a message naming its holder. Returns the release function.
 */
export function acquireLock(root: string, command: string): () => void {
  const p = join(root, LOCK_FILE);
  mkdirSync(dirname(p), { recursive: true });
  const body = JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString(), command }) + '\n';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(p, 'wx');
      writeSync(fd, body);
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        rmSync(p, { force: true });
        process.off('exit', release);
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const state = readLock(root);
      if (state.stale) {
        rmSync(p, { force: true });
        continue;
      }
      const h = state.holder;
      throw new UserError(
        `Another ingest holds the store lock${h ? `: pid ${h.pid} on ${h.host}, started ${h.started_at} (${h.command})` : ''}.`,
        `Wait for it to finish. If that process is gone, delete ${p}.`,
        EXIT.LOCKED,
      );
    }
  }
  throw new UserError('Could not take the store lock.', `Delete ${p} if no ingest is running.`, EXIT.LOCKED);
}
