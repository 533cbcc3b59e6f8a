// The fallback QR decoder (jsQR, served from the service's node_modules) off the page's thread.
/* global jsQR */
importScripts('vendor/jsqr.js');

self.onmessage = (event) => {
  const { id, width, height, buffer } = event.data;
  const found = jsQR(new Uint8ClampedArray(buffer), width, height, { inversionAttempts: 'attemptBoth' });
  self.postMessage({ id, text: found ? found.data : null });
};
