// qr.js — QR codes (ISO/IEC 18004, byte mode, error correction M, versions 1-10) drawn as SVG, for join links a phone can scan.
//
// No library is fetched (the page loads nothing from elsewhere), so the encoder is here, small:
//   1. the text's UTF-8 bytes in byte mode (after an ECI header naming UTF-8 when they are not all
//      ASCII), in the smallest version that holds them (up to 213 bytes);
//   2. split into blocks, each given its Reed-Solomon error-correction codewords, interleaved;
//   3. drawn into the matrix around the function patterns (finders, timing, alignment, format and
//      version information) in the standard zigzag;
//   4. masked with each of the 8 masks, keeping the one with the lowest penalty score.
// The browser test scans what the page draws with zbarimg and checks it reads the join link back.

// Level M, versions 1-10: error-correction codewords per block, then [blocks, data codewords] per group.
const BLOCKS = [null,
  [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]],
  [16, [4, 27]], [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]]];
const ALIGN = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
const EXP = new Uint8Array(512), LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x; LOG[x] = i;
  x <<= 1; if (x & 0x100) x ^= 0x11D;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/** The degree-n generator polynomial (x - a^0)...(x - a^(n-1)), highest coefficient first, the leading 1 left out. */
function generator(n) {
  let g = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(g.length + 1).fill(0);
    for (let j = 0; j < g.length; j++) { next[j] ^= g[j]; next[j + 1] ^= mul(g[j], EXP[i]); }
    g = next;
  }
  return g.slice(1);
}

/** The n error-correction codewords of data: the remainder of data(x) * x^n divided by the generator. */
function ecCodewords(data, n) {
  const g = generator(n), r = new Array(n).fill(0);
  for (const d of data) {
    const f = d ^ r.shift();
    r.push(0);
    for (let i = 0; i < n; i++) r[i] ^= mul(g[i], f);
  }
  return r;
}

function dataCodewords(version) {
  const [, ...groups] = BLOCKS[version];
  return groups.reduce((sum, [blocks, count]) => sum + blocks * count, 0);
}

/** The final sequence of codewords: data in byte mode, padded, split into blocks, error correction added, interleaved. */
function codewords(bytes, version) {
  const capacity = dataCodewords(version) * 8, bits = [];
  const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  if (bytes.some(b => b >= 0x80)) { put(0b0111, 4); put(26, 8); } // ECI 26: the bytes are UTF-8
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - bits.length % 8) % 8);
  for (let pad = 0xEC; bits.length < capacity; pad ^= 0xEC ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  const [ecLength, ...groups] = BLOCKS[version], blocks = [];
  let at = 0;
  for (const [count, length] of groups)
    for (let i = 0; i < count; i++) { blocks.push(data.slice(at, at + length)); at += length; }
  const ecs = blocks.map(b => ecCodewords(b, ecLength)), out = [];
  const longest = Math.max(...blocks.map(b => b.length));
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.length) out.push(b[i]);
  for (let i = 0; i < ecLength; i++) for (const e of ecs) out.push(e[i]);
  return out;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x, y) => x % 3 === 0, (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0, (x, y) => (x * y) % 2 + (x * y) % 3 === 0,
  (x, y) => ((x * y) % 2 + (x * y) % 3) % 2 === 0, (x, y) => ((x + y) % 2 + (x * y) % 3) % 2 === 0];

/** The matrix of version and mask: rows of booleans (true: dark). */
function draw(words, version, mask) {
  const size = version * 4 + 17;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (x, y, on) => { dark[y][x] = on; fixed[y][x] = true; };
  for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]])
    for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) {
      const x = cx + dx, y = cy + dy, d = Math.max(Math.abs(dx), Math.abs(dy));
      if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, d !== 2 && d !== 4);
    }
  const align = ALIGN[version], last = align.length - 1;
  for (let i = 0; i <= last; i++) for (let j = 0; j <= last; j++) {
    if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++)
      set(align[i] + dx, align[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
  }
  // format information: level M (00) and the mask, BCH(15,5), XOR 0x5412; both copies, and the dark module
  let rem = mask;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const format = ((mask << 10) | rem) ^ 0x5412, bit = (v, i) => ((v >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) set(8, i, bit(format, i));
  set(8, 7, bit(format, 6)); set(8, 8, bit(format, 7)); set(7, 8, bit(format, 8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(format, i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(format, i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(format, i));
  set(8, size - 8, true);
  if (version >= 7) { // version information, BCH(18,6), both copies
    let v = version;
    for (let i = 0; i < 12; i++) v = (v << 1) ^ ((v >>> 11) * 0x1F25);
    const info = (version << 12) | v;
    for (let i = 0; i < 18; i++) {
      const a = size - 11 + (i % 3), b = Math.floor(i / 3);
      set(a, b, bit(info, i)); set(b, a, bit(info, i));
    }
  }
  // the codewords, two columns at a time from the right, up and down in turn, skipping the timing column
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++) for (let j = 0; j < 2; j++) {
      const x = right - j, y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
      if (fixed[y][x]) continue;
      const on = i < words.length * 8 && ((words[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
      dark[y][x] = on !== MASKS[mask](x, y);
      i++;
    }
  }
  return dark;
}

/** The penalty score of a matrix (the standard's four rules): lower reads better. */
function penalty(m) {
  const size = m.length;
  let score = 0, darkCount = 0;
  const lines = [];
  for (let y = 0; y < size; y++) lines.push(m[y]);
  for (let x = 0; x < size; x++) lines.push(m.map(row => row[x]));
  for (const line of lines) {
    for (let i = 0, run = 1; i < size; i++) { // runs of 5 or more of one colour
      if (i + 1 < size && line[i + 1] === line[i]) { run++; continue; }
      if (run >= 5) score += 3 + run - 5;
      run = 1;
    }
    // finder-like 1:1:3:1:1 with 4 light modules on one side (the quiet zone counts as light)
    const s = `0000${line.map(d => (d ? '1' : '0')).join('')}0000`;
    for (const pattern of ['10111010000', '00001011101'])
      for (let at = s.indexOf(pattern); at >= 0; at = s.indexOf(pattern, at + 1)) score += 40;
  }
  for (let y = 0; y + 1 < size; y++) for (let x = 0; x + 1 < size; x++) { // 2x2 blocks
    const c = m[y][x];
    if (c === m[y][x + 1] && c === m[y + 1][x] && c === m[y + 1][x + 1]) score += 3;
  }
  for (const row of m) for (const d of row) if (d) darkCount++;
  const total = size * size; // balance: 10 per 5% away from half dark
  score += Math.floor(Math.abs(darkCount * 20 - total * 10) / total) * 10;
  return score;
}

/** The QR code of text as rows of booleans (true: dark), or null when it holds more than 213 bytes. */
export function qrMatrix(text) {
  const bytes = [...new TextEncoder().encode(text)];
  let version = 1;
  const eci = bytes.some(b => b >= 0x80) ? 12 : 0;
  while (version <= 10 && eci + 4 + (version < 10 ? 8 : 16) + 8 * bytes.length > dataCodewords(version) * 8) version++;
  if (version > 10) return null;
  const words = codewords(bytes, version);
  let best = null, bestScore = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const m = draw(words, version, mask), score = penalty(m);
    if (score < bestScore) { best = m; bestScore = score; }
  }
  return best;
}

/** The QR code of text as an SVG element (dark modules as one path, a quiet zone of 4), labelled for
 * assistive tools; null when the text is too long. */
export function qrSvg(text, label) {
  const m = qrMatrix(text);
  if (!m) return null;
  const size = m.length + 8, ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const bg = document.createElementNS(ns, 'rect');
  bg.setAttribute('width', size); bg.setAttribute('height', size); bg.setAttribute('fill', '#fff');
  let d = '';
  m.forEach((row, y) => row.forEach((on, x) => { if (on) d += `M${x + 4} ${y + 4}h1v1h-1z`; }));
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d); path.setAttribute('fill', '#000');
  svg.append(bg, path);
  return svg;
}
