/**
 * A "scan" of a PDF for tests: each page rendered by pdftoppm to a JPEG and written into a new PDF
 * as a page-sized image, with no text layer (what a scanner or a photo-to-PDF app gives).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A JPEG's width, height and colour components, from its start-of-frame marker. */
function jpegFrame(b: Buffer): { width: number; height: number; components: number } {
  let i = 2;
  while (i + 9 < b.length) {
    const marker = b[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7), components: b[i + 9]! };
    i += 2 + b.readUInt16BE(i + 2);
  }
  throw new Error('not a baseline JPEG');
}

/** The PDF's pages (all, or first…last) as an image-only PDF at `dpi`. */
export function scanPdf(pdfPath: string, dpi = 150, pages?: [number, number]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-scan-'));
  try {
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-jpeg', ...(pages ? ['-f', String(pages[0]), '-l', String(pages[1])] : []), pdfPath, join(dir, 'p')]);
    const objects: Buffer[] = [];
    const add = (o: string | Buffer) => objects.push(typeof o === 'string' ? Buffer.from(o) : o);
    add('');
    add('');
    const kids: number[] = [];
    for (const f of readdirSync(dir).sort()) {
      const img = readFileSync(join(dir, f));
      const { width, height, components } = jpegFrame(img);
      const w = ((width * 72) / dpi).toFixed(2);
      const h = ((height * 72) / dpi).toFixed(2);
      const space = components === 1 ? 'DeviceGray' : 'DeviceRGB';
      add(Buffer.concat([Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${space} /BitsPerComponent 8 /Filter /DCTDecode /Length ${img.length} >>\nstream\n`), img, Buffer.from('\nendstream')]));
      const image = objects.length;
      const draw = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
      add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${image} 0 R >> >> /Contents ${objects.length} 0 R >>`);
      kids.push(objects.length);
    }
    objects[0] = Buffer.from('<< /Type /Catalog /Pages 2 0 R >>');
    objects[1] = Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
    const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
    const offsets: number[] = [];
    let at = parts[0]!.length;
    objects.forEach((o, i) => {
      const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from('\nendobj\n')]);
      offsets.push(at);
      at += b.length;
      parts.push(b);
    });
    const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
    return Buffer.concat(parts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
