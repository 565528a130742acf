// Reads a QR code from a camera frame, off the page's thread, for browsers without BarcodeDetector
// (Chrome and Firefox on a desktop, Firefox on Android, Safari on an iPhone unless a setting is on).
// The decoder is jsQR 1.4.0 from the npm registry, unchanged (vendor/jsQR.js, Apache-2.0: its
// licence is vendor/jsQR.LICENSE.txt). A frame comes in as {width, height, pixels: RGBA bytes} and
// the code's text goes back, or null when the frame shows none.

importScripts('/js/vendor/jsQR.js');

self.onmessage = ({data: {width, height, pixels}}) => {
  // a live code is dark on light; the inverted pass would double the work on every empty frame
  const found = self.jsQR(new Uint8ClampedArray(pixels), width, height, {inversionAttempts: 'dontInvert'});
  self.postMessage(found ? found.data : null);
};
