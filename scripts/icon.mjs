// Regenerates media/icon.png, the 128 x 128 icon the Marketplace and Open VSX show, from the
// activity bar's glyph (media/tandem.svg): the glyph's strokes in white on a rounded tile of the
// gallery banner's colour, so the two stay one drawing. The PNG is committed; run this after
// changing the glyph or the colour: `node scripts/icon.mjs`.
// sharp (with its own librsvg) is in node_modules through @qwen-code/qwen-code, a devDependency.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const SIZE = 128;
/** The glyph's 24-unit box takes this share of the tile, leaving a margin around it. */
const GLYPH_SHARE = 0.75;

const glyph = readFileSync(join(root, 'media', 'tandem.svg'), 'utf8');
const inner = glyph.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
const scale = (SIZE * GLYPH_SHARE) / 24;
const offset = (SIZE * (1 - GLYPH_SHARE)) / 2;
const tile = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
<rect width="${SIZE}" height="${SIZE}" rx="24" fill="${manifest.galleryBanner.color}"/>
<g transform="translate(${offset} ${offset}) scale(${scale})" fill="none" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${inner}</g>
</svg>`;

await sharp(Buffer.from(tile)).png({ compressionLevel: 9 }).toFile(join(root, 'media', 'icon.png'));
