// Writes the PWA icons in public/icons/ (committed; re-run after changing the mark):
// an SVG for any size plus 192 and 512 px PNGs, one of them maskable (the mark inside the
// central 80 % safe zone on a full-bleed background). No dependencies: a tiny PNG encoder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
// Dark tokens: --hermes-color-neutral (background), -surface (disc), -secondary (accent).
const NEUTRAL = [0x0a, 0x09, 0x08];
const SURFACE = [0x22, 0x33, 0x3b];
const ACCENT = [0xc6, 0xac, 0x8f];

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** The mark: a disc with an "H" made of three bars; `scale` is the disc's radius / size. */
function png(size, scale) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  const c = size / 2;
  const r = size * scale;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const dx = x + 0.5 - c;
      const dy = y + 0.5 - c;
      let color = NEUTRAL;
      if (dx * dx + dy * dy <= r * r) {
        color = SURFACE;
        const u = dx / r;
        const v = dy / r;
        const bar = 0.14;
        if (Math.abs(v) < 0.5 && (Math.abs(u + 0.3) < bar / 2 + 0.02 || Math.abs(u - 0.3) < bar / 2 + 0.02)) color = ACCENT;
        if (Math.abs(u) < 0.3 && Math.abs(v) < bar / 2) color = ACCENT;
      }
      raw.set(color, y * (size * 3 + 1) + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'icon-192.png'), png(192, 0.46));
writeFileSync(join(out, 'icon-512.png'), png(512, 0.46));
writeFileSync(join(out, 'icon-maskable-512.png'), png(512, 0.36));
writeFileSync(
  join(out, 'icon.svg'),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="22" fill="${hex(NEUTRAL)}"/><circle cx="50" cy="50" r="46" fill="${hex(SURFACE)}"/><g fill="${hex(ACCENT)}"><rect x="30.4" y="27" width="8.2" height="46"/><rect x="61.4" y="27" width="8.2" height="46"/><rect x="36" y="46.8" width="28" height="6.4"/></g></svg>\n`,
);
console.log('wrote public/icons/');
