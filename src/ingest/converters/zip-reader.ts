/** Small promise wrapper over yauzl for reading zip packages from memory (archives, xlsx parts). */
import type { Entry, ZipFile } from 'yauzl';
import type { Readable } from 'node:stream';

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  encrypted: boolean;
}

export interface OpenZip {
  entries: ZipEntryInfo[];
  /** stream one entry (yauzl validates the declared uncompressed size while reading) */
  stream(name: string): Promise<Readable>;
  close(): void;
}

/**
 * Open a zip held in memory and list its entries (central directory only; nothing is inflated).
 * Names are decoded here rather than by yauzl, which rejects the whole archive when one entry has
 * an unsafe name (absolute or with `..`): callers skip such entries one by one instead.
 */
export async function openZip(bytes: Uint8Array): Promise<OpenZip> {
  const yauzl = (await import('yauzl')).default;
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true, decodeStrings: false }, (err, z) => (err || !z ? reject(err ?? new Error('not a zip')) : resolve(z))),
  );
  const raw = new Map<string, Entry>();
  const entries: ZipEntryInfo[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: Entry) => {
      const ex = e as Entry & { extraFields: { id: number; data: Buffer }[] };
      const name = yauzl.getFileNameLowLevel(e.generalPurposeBitFlag, e.fileName as unknown as Buffer, ex.extraFields, false);
      if (!raw.has(name)) raw.set(name, e);
      entries.push({
        name,
        compressedSize: e.compressedSize,
        uncompressedSize: e.uncompressedSize,
        isDirectory: name.endsWith('/'),
        encrypted: (e.generalPurposeBitFlag & 0x1) !== 0,
      });
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return {
    entries,
    stream: (name) =>
      new Promise<Readable>((resolve, reject) => {
        const e = raw.get(name);
        if (!e) return reject(new Error(`no entry ${name}`));
        zip.openReadStream(e, (err, s) => (err || !s ? reject(err ?? new Error('no stream')) : resolve(s)));
      }),
    close: () => zip.close(),
  };
}

/** Read one entry fully, refusing to go past `maxBytes` of inflated data. */
export async function readEntry(zip: OpenZip, name: string, maxBytes: number): Promise<Buffer> {
  const s = await zip.stream(name);
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of s as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      s.destroy();
      throw new Error(`entry ${name} inflates past ${maxBytes} bytes`);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}
