import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

const WIDTH = 640;
const HEIGHT = 480;
/** The code's size on the frame, quiet zone included (about what a phone sees of a ticket held up). */
const CODE_PIXELS = 360;
const QUIET_ZONE = 4;
/** BT.601 studio range: black and white luma, no colour. */
const BLACK = 16;
const WHITE = 235;
const NO_COLOUR = 128;

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing the QR code
 * of `text` on white: a Y4M file, that is a one-line header and raw I420 frames (full-size luma,
 * quarter-size chroma planes). Chromium plays it in a loop, from its first frame when the page
 * opens the camera.
 */
export function writeQrVideo(text: string, file: string): void {
  const frame = qrFrame(text);
  writeFileSync(file, Buffer.concat([header(10), frame, frame]));
}

/**
 * A video showing each of `texts` as a QR code for one second, in order (one frame a second:
 * `texts.length` seconds, then again from the start). 60 codes are about 28 MB.
 */
export function writeQrSequence(texts: string[], file: string): void {
  writeFileSync(file, Buffer.concat([header(1), ...texts.map(qrFrame)]));
}

function header(framesPerSecond: number): Buffer {
  return Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${framesPerSecond}:1 Ip A1:1 C420jpeg\n`);
}

/**
 * One frame: the code's modules drawn straight from `QRCode.create` (the package's PNG output goes
 * through zlib and takes seconds a code under Jest; this takes milliseconds).
 */
function qrFrame(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor(CODE_PIXELS / (modules.size + 2 * QUIET_ZONE));
  const side = (modules.size + 2 * QUIET_ZONE) * scale;
  const left = (WIDTH - side) >> 1;
  const top = (HEIGHT - side) >> 1;
  const luma = Buffer.alloc(WIDTH * HEIGHT, WHITE);
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      const x = left + (column + QUIET_ZONE) * scale;
      const y = top + (row + QUIET_ZONE) * scale;
      for (let line = 0; line < scale; line += 1) luma.fill(BLACK, (y + line) * WIDTH + x, (y + line) * WIDTH + x + scale);
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), NO_COLOUR);
  return Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
}
