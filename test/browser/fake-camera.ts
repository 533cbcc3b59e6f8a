import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

const WIDTH = 640;
const HEIGHT = 480;

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing the QR code
 * of `text` on white: a Y4M file, that is a one-line header and raw I420 frames (full-size luma,
 * quarter-size chroma planes), converted from the PNG the `qrcode` package draws. Chromium plays
 * it in a loop.
 */
export async function writeQrVideo(text: string, file: string): Promise<Buffer> {
  const png = PNG.sync.read(await QRCode.toBuffer(text, { width: 360, margin: 4, errorCorrectionLevel: 'M' }));
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235); // white in BT.601 studio range
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128); // no colour
  const left = (WIDTH - png.width) >> 1;
  const top = (HEIGHT - png.height) >> 1;
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const i = (y * png.width + x) * 4;
      const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
      luma[(y + top) * WIDTH + x + left] = Math.round(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256);
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]));
  return PNG.sync.write(png);
}
