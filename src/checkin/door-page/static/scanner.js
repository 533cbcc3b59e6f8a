// The camera and the QR decoder: the browser's BarcodeDetector when it reads QR codes, else jsQR
// in a worker. Frames are decoded several times a second, one at a time, without pause: the page
// decides what to do with a code read again (continuous scanning).

const FRAME_INTERVAL_MS = 80;
const MAX_DECODE_WIDTH = 800;

async function nativeDetector() {
  if (!('BarcodeDetector' in self)) return null;
  try {
    const formats = await BarcodeDetector.getSupportedFormats();
    return formats.includes('qr_code') ? new BarcodeDetector({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
}

export class Scanner {
  /** `onCode(text)` is called for each code read while scanning is on. */
  constructor(video, onCode) {
    this.video = video;
    this.onCode = onCode;
    this.stream = null;
    this.scanning = false;
    this.timer = null;
    this.detector = undefined;
    this.worker = null;
    this.canvas = document.createElement('canvas');
    this.pending = null;
    this.requestId = 0;
    this.torch = false;
  }

  /** The camera's track, while it is open. */
  get track() {
    return this.stream?.getVideoTracks()[0] ?? null;
  }

  /** Whether the open camera has a torch the page can switch (Chrome on Android; not iOS Safari). */
  get hasTorch() {
    try {
      return Boolean(this.track?.getCapabilities?.().torch);
    } catch {
      return false;
    }
  }

  /** Switches the torch; false when the camera refused. */
  async setTorch(on) {
    const track = this.track;
    if (!track) return false;
    try {
      await track.applyConstraints({ advanced: [{ torch: on }] });
      this.torch = on;
      return true;
    } catch {
      return false;
    }
  }

  get decoderName() {
    if (this.detector === undefined) return '';
    return this.detector ? 'BarcodeDetector' : 'jsQR';
  }

  /** Opens the back camera (once); throws the browser's error when it is refused or missing. */
  async open() {
    if (this.detector === undefined) this.detector = await nativeDetector();
    if (this.stream) return;
    if (!navigator.mediaDevices?.getUserMedia) throw new Error('This browser gives no camera to this page (it needs HTTPS).');
    this.stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
    this.video.srcObject = this.stream;
    await this.video.play();
  }

  /** Releases the camera (the page is hidden or the device unpaired). */
  close() {
    this.stop();
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.torch = false;
    this.video.srcObject = null;
  }

  start() {
    this.scanning = true;
    this.schedule();
  }

  stop() {
    this.scanning = false;
    clearTimeout(this.timer);
    this.timer = null;
  }

  schedule() {
    clearTimeout(this.timer);
    if (this.scanning) this.timer = setTimeout(() => this.tick(), FRAME_INTERVAL_MS);
  }

  async tick() {
    if (!this.scanning || !this.stream) return;
    let text = null;
    try {
      if (this.video.readyState >= 2) text = await this.decode();
    } catch {
      text = null;
    }
    if (text && this.scanning) this.onCode(text);
    this.schedule();
  }

  async decode() {
    if (this.detector) {
      const codes = await this.detector.detect(this.video);
      return codes.length > 0 ? codes[0].rawValue : null;
    }
    const scale = Math.min(1, MAX_DECODE_WIDTH / this.video.videoWidth);
    const width = Math.round(this.video.videoWidth * scale);
    const height = Math.round(this.video.videoHeight * scale);
    if (!width || !height) return null;
    this.canvas.width = width;
    this.canvas.height = height;
    const context = this.canvas.getContext('2d', { willReadFrequently: true });
    context.drawImage(this.video, 0, 0, width, height);
    const image = context.getImageData(0, 0, width, height);
    return this.decodeInWorker(image);
  }

  decodeInWorker(image) {
    if (!this.worker) {
      this.worker = new Worker('decoder-worker.js');
      this.worker.onmessage = (event) => {
        if (this.pending && event.data.id === this.pending.id) {
          this.pending.resolve(event.data.text);
          this.pending = null;
        }
      };
    }
    const id = (this.requestId += 1);
    return new Promise((resolve) => {
      this.pending = { id, resolve };
      this.worker.postMessage({ id, width: image.width, height: image.height, buffer: image.data.buffer }, [image.data.buffer]);
    });
  }
}
